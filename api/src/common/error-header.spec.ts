import { asciiJson, codedErrorHeaders } from './error.filter';

describe('the x-error header', () => {
  it('stays ASCII whatever the message holds, and parses back to the same message', () => {
    const message = 'The division is already claimed by Łukasz 田中 😀';
    const header = codedErrorHeaders({ code: 'INV', defaultMessage: message }, 'cid')['x-error'];
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
    expect(JSON.parse(header).defaultMessage).toBe(message);
    expect(JSON.parse(asciiJson({ a: 'é\u2028' }))).toEqual({ a: 'é\u2028' });
  });
});
