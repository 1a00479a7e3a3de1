/**
 * How the UI's built files reach a browser: compressed ahead of time (the .br / .gz beside each
 * file, no compression work per request), cached for a year under their content-hashed names, and
 * split by route, so a page's own code is fetched when it first opens, not with the app.
 */
import { API_URL } from '../support/api';

jest.setTimeout(30_000);

const get = (path: string, encoding?: string) => fetch(API_URL + path, { headers: encoding ? { 'accept-encoding': encoding } : {} });

/** The module scripts index.html loads before any page opens. */
async function initialScripts(): Promise<string[]> {
  const html = await (await get('/')).text();
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
}

describe('the UI files', () => {
  it('sends the brotli or gzip twin as the browser accepts, and the plain file to one that accepts neither', async () => {
    const [entry] = (await initialScripts()).filter((s) => /\/main-/.test(s));
    expect(entry).toBeTruthy();
    const br = await get(entry, 'br, gzip');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    const gzip = await get(entry, 'gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    const plain = await get(entry, 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    // The same script whichever way it travelled (fetch undoes the encoding).
    const [a, b, c] = await Promise.all([br.text(), gzip.text(), plain.text()]);
    expect(a).toBe(c);
    expect(b).toBe(c);
    expect(Number(br.headers.get('content-length'))).toBeLessThan(Buffer.byteLength(c) / 2);
  });

  it('caches the hashed files for a year, and never the page that names them', async () => {
    const [entry] = await initialScripts();
    expect((await get(entry)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/dashboard')).headers.get('cache-control') ?? '').not.toMatch(/immutable|max-age=[1-9]/);
  });

  it('answers 404 for a built file that does not exist (a chunk of an earlier deployment), not the page', async () => {
    const res = await get('/assets/CallLogPage-gone1234.js', 'br');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toMatch(/text\/html/);
    // A page path still gets the page.
    expect((await get('/cases/past')).headers.get('content-type')).toMatch(/text\/html/);
  });

  it("loads the call log's and the evaluation screen's code only when they open", async () => {
    const initial = await initialScripts();
    expect(initial.some((s) => /CallLogPage|EvaluationPage|QuestionnaireForm/.test(s))).toBe(false);
    const entry = await (await get(initial.find((s) => /\/main-/.test(s))!)).text();
    for (const page of ['CallLogPage', 'EvaluationPage']) {
      const chunk = new RegExp(`assets/(${page}-[\\w-]+\\.js)`).exec(entry)?.[1];
      expect(chunk).toBeTruthy();
      const res = await get(`/assets/${chunk}`, 'br');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
    }
  });
});
