// An integration test drives the live stack (Temporal timers, the workflow, the live relay): one
// retry, logged with the first attempt's error. `npm test` names a test that needed it as flaky.
jest.retryTimes(1, { logErrorsBeforeRetry: true });
