import { loadConfig, productionProblems } from './config';

describe('configuration', () => {
  const production = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32) };

  it('refuses production without APP_SECRET or with a short one', () => {
    expect(productionProblems({ NODE_ENV: 'production' })).toEqual([expect.stringContaining('APP_SECRET is required')]);
    expect(productionProblems({ NODE_ENV: 'production', APP_SECRET: 'short' })).toEqual([expect.stringContaining('32 characters')]);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('APP_SECRET is required');
    expect(productionProblems(production)).toEqual([]);
  });

  it('refuses the demo tools in production and serves them only when asked for', () => {
    expect(productionProblems({ ...production, DEMO_TOOLS: '1' })).toEqual([expect.stringContaining('DEMO_TOOLS')]);
    // Before, the outbox was on whenever SMTP and Twilio were unset, production included.
    expect(loadConfig({ ...production }).demoTools).toBe(false);
    expect(loadConfig({}).demoTools).toBe(false);
    expect(loadConfig({ DEMO_TOOLS: '1' }).demoTools).toBe(true);
  });

  it("ends idle sign-ins after the spec's auto-logout time unless told otherwise, and refuses a useless setting", () => {
    expect(loadConfig({}).identity.sessionIdleSeconds).toBe(15 * 60);
    expect(loadConfig({}).identity.sessionMaxSeconds).toBe(12 * 60 * 60);
    expect(loadConfig({ SESSION_IDLE_SECONDS: '5', SESSION_MAX_SECONDS: '20' }).identity).toEqual(
      expect.objectContaining({ sessionIdleSeconds: 5, sessionMaxSeconds: 20 }),
    );
    expect(() => loadConfig({ SESSION_IDLE_SECONDS: '0' })).toThrow('SESSION_IDLE_SECONDS');
    expect(() => loadConfig({ SESSION_IDLE_SECONDS: '600', SESSION_MAX_SECONDS: '60' })).toThrow('SESSION_MAX_SECONDS');
  });

  it('keys the cookies with APP_SECRET when given', () => {
    expect(loadConfig(production).identity.cookieSecret).toBe(production.APP_SECRET);
  });
});
