/**
 * Determinism guard: replays every recorded history in tests/fixtures/histories/ against the
 * compiled workflows (workflows/dist/workflows, what the worker bundles). A change of a workflow
 * that would break executions already running (a command added, removed or reordered without
 * patched()) fails here with a DeterminismViolationError naming the history.
 *
 * The histories come from tests/support/record-histories.ts (see its header for how to re-record,
 * and when not to). Every workflow type the worker registers must have at least one.
 */
import { readdirSync, readFileSync } from 'fs';
import path from 'path';
import { Worker } from '@temporalio/worker';
import { HISTORIES_DIR, historyFromFixture, quietRuntime, workflowBundle, workflowTypes } from '../support/temporal';

const files = readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')).sort();
const typeOf = (file: string) => file.replace(/-\d+\.json$/, '');

describe('workflow replay', () => {
  it('has a recorded history of every workflow type the worker registers', () => {
    const recorded = new Set(files.map(typeOf));
    expect(workflowTypes().filter((t) => !recorded.has(t))).toEqual([]);
  });

  it('has no history of a workflow type that no longer exists (re-record instead)', () => {
    const types = new Set(workflowTypes());
    expect(files.filter((f) => !types.has(typeOf(f)))).toEqual([]);
  });

  it('replays every recorded history without non-determinism', async () => {
    quietRuntime();
    const bundle = await workflowBundle();
    const histories = files.map((file) => {
      const json = JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8'));
      const started = json.events?.[0]?.workflowExecutionStartedEventAttributes;
      // The file's own type, so a misnamed file cannot pass by replaying as something else.
      expect([file, started?.workflowType?.name]).toEqual([file, typeOf(file)]);
      return { workflowId: file, history: historyFromFixture(json) };
    });
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories({ workflowBundle: bundle, replayName: 'fixtures' }, histories)) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.name}: ${result.error.message.split('\n')[0]}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(files.length);
  }, 60_000);
});
