import { createHash } from 'crypto';
import fs from 'fs';
import { createRequire } from 'module';
import path from 'path';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundleOption } from '@temporalio/worker';

const BUNDLE_PREFIX = 'workflow-bundle-';

/**
 * The inputs of the bundle: every local file the workflows reach through require() (the compiled
 * workflows, definitions, and @crisis/* packages such as forms/ if a workflow imports them), and
 * name@version of every other package they import. Found by following the compiled CommonJS
 * require() calls from the entry, so an unrelated change (an activity, the API) rebuilds nothing.
 */
export function bundleInputs(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>(['@temporalio/worker@' + require('@temporalio/worker/package.json').version]);
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.(c?js)$/.test(file)) return;
    const req = createRequire(file);
    for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
      const local = spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('@crisis/');
      if (local) {
        try {
          visit(req.resolve(spec));
        } catch {
          packages.add(`unresolved:${spec}`); // the bundler will report it
        }
      } else {
        const name = spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');
        packages.add(`${name}@${packageVersion(req, name)}`);
      }
    }
  };
  visit(entry);
  return { files: [...files].sort(), packages: [...packages].sort() };
}

function packageVersion(req: NodeRequire, name: string): string {
  try {
    return req(`${name}/package.json`).version;
  } catch {
    return '?'; // a built-in, or a package that hides its package.json
  }
}

/** A hash of what goes into the bundle (see bundleInputs). */
export function workflowBundleHash(workflowsPath: string): string {
  const { files, packages } = bundleInputs(workflowsPath);
  const h = createHash('sha256');
  for (const p of packages) h.update(p).update('\n');
  for (const file of files) h.update(path.relative(path.dirname(workflowsPath), file)).update('\0').update(fs.readFileSync(file)).update('\0');
  return h.digest('hex').slice(0, 16);
}

/**
 * The workflow bundle, built with bundleWorkflowCode once per change of the compiled workflow
 * sources and kept as `<distDir>/workflow-bundle-<hash>.js`: a second start builds nothing.
 * Written through a temporary file and a rename, so replicas starting together never read half a
 * bundle. If the directory is read-only the bundle is used from memory.
 */
export async function loadWorkflowBundle(opts: {
  distDir: string;
  workflowsPath: string;
  log?: (msg: string) => void;
}): Promise<{ bundle: WorkflowBundleOption; cached: boolean; file: string }> {
  const log = opts.log ?? (() => undefined);
  const file = path.join(opts.distDir, `${BUNDLE_PREFIX}${workflowBundleHash(opts.workflowsPath)}.js`);
  if (fs.existsSync(file)) return { bundle: { codePath: file }, cached: true, file };

  const started = Date.now();
  const { code } = await bundleWorkflowCode({ workflowsPath: opts.workflowsPath, logger: new DefaultLogger('WARN') });
  log(`workflow bundle built in ${Date.now() - started} ms`);
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
    for (const name of fs.readdirSync(opts.distDir))
      if (name.startsWith(BUNDLE_PREFIX) && path.join(opts.distDir, name) !== file && !name.endsWith('.tmp'))
        fs.rmSync(path.join(opts.distDir, name), { force: true });
  } catch (err) {
    log(`could not cache the workflow bundle (${(err as Error).message}); using it from memory`);
  }
  return { bundle: { code }, cached: false, file };
}
