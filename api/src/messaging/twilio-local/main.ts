/**
 * Runs twilio-local as its own process (development and the demo):
 *   TWILIO_ACCOUNT_SID=AC… TWILIO_AUTH_TOKEN=… node api/dist/messaging/twilio-local/main.js
 * With TWILIO_LOCAL_STATE_FILE set, messages and calls are kept in that JSON file, so a restart
 * keeps the demo's history. Fault settings are not kept: a restarted server never fails on its own.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createTwilioLocal, type LocalCall, type LocalMessage, type TwilioLocalState } from './server';

interface SavedState {
  messages: LocalMessage[];
  calls: LocalCall[];
}

/** Writes atomically (temp file, then rename) so a crash never leaves half a file. */
function save(file: string, state: TwilioLocalState) {
  const saved: SavedState = { messages: state.messages, calls: state.calls };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(saved));
  renameSync(`${file}.tmp`, file);
}

function load(file: string): SavedState | undefined {
  if (!existsSync(file)) return undefined;
  const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<SavedState>;
  return { messages: Array.isArray(saved.messages) ? saved.messages : [], calls: Array.isArray(saved.calls) ? saved.calls : [] };
}

export async function main(env: NodeJS.ProcessEnv = process.env) {
  const accountSid = env.TWILIO_ACCOUNT_SID;
  const authToken = env.TWILIO_AUTH_TOKEN;
  if (!accountSid || !authToken) throw new Error('twilio-local needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (the same the app uses)');
  const stateFile = env.TWILIO_LOCAL_STATE_FILE || null;
  const ringSeconds = env.TWILIO_LOCAL_RING_SECONDS ? Number(env.TWILIO_LOCAL_RING_SECONDS) : undefined;
  if (ringSeconds !== undefined && !(ringSeconds > 0)) throw new Error('TWILIO_LOCAL_RING_SECONDS must be a positive number');

  // Writes are debounced: a burst of callbacks makes one write.
  let pending: NodeJS.Timeout | null = null;
  let latest: TwilioLocalState | null = null;
  const flush = () => {
    if (pending) clearTimeout(pending);
    pending = null;
    if (stateFile && latest) save(stateFile, latest);
  };

  const server = await createTwilioLocal({
    port: Number(env.TWILIO_LOCAL_PORT || 3900),
    host: env.TWILIO_LOCAL_HOST || '127.0.0.1',
    accountSid,
    authToken,
    inboundSmsUrl: env.TWILIO_LOCAL_INBOUND_SMS_URL || undefined,
    ringSeconds,
    initialState: stateFile ? load(stateFile) : undefined,
    onChange: (state) => {
      latest = state;
      if (stateFile && !pending) pending = setTimeout(flush, 1000);
    },
    log: (line) => console.warn(line),
  });
  console.log(`twilio-local listening on ${server.url} (account ${accountSid}${stateFile ? `, state in ${stateFile}` : ''})`);

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
