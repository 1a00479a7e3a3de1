/** Files to and from the API: downloads, multipart uploads and the text of a PDF. */
import { execFile } from 'child_process';
import { API_URL } from './api';

/** GET `path` as bytes, with the parsed x-error header of a failure. */
export async function download(path: string, token: string) {
  const res = await fetch(API_URL + path, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const errorHeader = res.headers.get('x-error');
  return { status: res.status, type: res.headers.get('content-type'), headers: res.headers, bytes, error: errorHeader ? JSON.parse(errorHeader) : null };
}

/** POST a multipart form to `path`: `fields` first, then `file`. The body is parsed when it is JSON. */
export async function uploadForm(
  path: string,
  token: string,
  file: { content: string | Uint8Array; name: string; type: string },
  fields: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([file.content as BlobPart], { type: file.type }), file.name);
  const res = await fetch(API_URL + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

/**
 * The text of a PDF (runs of spaces and tabs made one space) and its page count, read by pdf-parse
 * (pdf.js) in a child Node process: pdf.js loads its worker with a dynamic import, which jest's
 * module sandbox does not allow.
 */
export async function pdfText(bytes: Buffer): Promise<{ text: string; pages: number }> {
  // Thrown rather than expect()ed: Playwright suites read PDFs too, and have no global expect.
  const magic = bytes.subarray(0, 5).toString('latin1');
  if (magic !== '%PDF-') throw new Error(`not a PDF: starts with ${JSON.stringify(magic)}`);
  const script = `
    const { PDFParse } = require('pdf-parse');
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', async () => {
      const parser = new PDFParse({ data: Buffer.concat(chunks) });
      const r = await parser.getText();
      await parser.destroy();
      process.stdout.write(JSON.stringify({ text: r.text, pages: r.total }));
    });`;
  const out = await new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', script], { cwd: __dirname, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    );
    child.stdin!.end(bytes);
  });
  const r = JSON.parse(out) as { text: string; pages: number };
  return { text: r.text.replace(/[ \t]+/g, ' '), pages: r.pages };
}
