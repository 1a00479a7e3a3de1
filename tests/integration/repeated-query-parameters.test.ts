import { ErrorCode } from '@crisis/forms';
import { api } from '../support/api';

/**
 * A query parameter given twice (?to=a&to=b) reaches a handler as an array: the last value counts
 * (as in the list routes' queryValue), it is never passed on as an array (found by the fuzz
 * battery: the outbox answered 500).
 */
describe('query parameters given twice', () => {
  it('the demo outbox reads the last "to" and "channel", and refuses a bad last channel with a coded 400', async () => {
    const twice = await api('GET', '/api/demo-tools/outbox?to=a%40example.org&to=nobody%40example.org');
    expect(twice.status).toBe(200);
    expect(twice.body).toEqual([]);
    const channel = await api('GET', '/api/demo-tools/outbox?channel=email&channel=fax');
    expect([channel.status, channel.error?.code]).toEqual([400, ErrorCode.Invalid]);
  });
});
