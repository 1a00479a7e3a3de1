/**
 * Runs fhir-local as its own process (development, tests and the demo):
 *   FHIR_LOCAL_PORT=4110 node api/dist/ehr/fhir-local/main.js
 * With FHIR_LOCAL_STATE_FILE set, the created DocumentReferences and Claims and the registered
 * clients are kept in that JSON file, so a restart keeps the demo's uploads and the keys facilities
 * registered. Tokens and faults are not kept: a restarted server never fails on its own, and asks
 * for new tokens (the API's adapter renews on a 401). FHIR_LOCAL_TOKEN_SECONDS: token lifetime (300).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createFhirLocal, type FhirLocalState, type FhirResource, type RegisteredClient } from './server';

interface SavedState {
  resources: Record<string, FhirResource[]>;
  clients: RegisteredClient[];
}

/** Writes atomically (temp file, then rename) so a crash never leaves half a file. */
function save(file: string, state: FhirLocalState) {
  const saved: SavedState = {
    resources: { DocumentReference: state.resources.DocumentReference ?? [], Claim: state.resources.Claim ?? [] },
    clients: state.clients,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(saved));
  renameSync(`${file}.tmp`, file);
}

function load(file: string): SavedState | undefined {
  if (!existsSync(file)) return undefined;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<SavedState>;
  return { resources: saved.resources && typeof saved.resources === 'object' ? saved.resources : {}, clients: Array.isArray(saved.clients) ? saved.clients : [] };
}

export async function main(env: NodeJS.ProcessEnv = process.env) {
  const stateFile = env.FHIR_LOCAL_STATE_FILE || null;
  const tokenSeconds = env.FHIR_LOCAL_TOKEN_SECONDS ? Number(env.FHIR_LOCAL_TOKEN_SECONDS) : undefined;
  if (tokenSeconds !== undefined && !(tokenSeconds > 0)) throw new Error('FHIR_LOCAL_TOKEN_SECONDS must be a positive number');

  let pending: NodeJS.Timeout | null = null;
  let latest: FhirLocalState | null = null;
  const flush = () => {
    if (pending) clearTimeout(pending);
    pending = null;
    if (stateFile && latest) save(stateFile, latest);
  };

  const server = await createFhirLocal({
    port: Number(env.FHIR_LOCAL_PORT || 4110),
    host: env.FHIR_LOCAL_HOST || '127.0.0.1',
    tokenSeconds,
    initialState: stateFile ? load(stateFile) : undefined,
    onChange: (state) => {
      latest = state;
      if (stateFile && !pending) pending = setTimeout(flush, 1000);
    },
  });
  console.log(`fhir-local (FHIR R4) listening on ${server.url}${stateFile ? `, state in ${stateFile}` : ''}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  return server;
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error((e as Error).message ?? e);
    process.exit(1);
  });
}
