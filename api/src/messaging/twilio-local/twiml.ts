/**
 * A very small XML reader for the TwiML the app returns to twilio-local. TwiML is plain XML with
 * no namespaces, CDATA or DTDs in practice, so a tag/text tokenizer is enough; anything it cannot
 * read is reported as an error, the way Twilio reports an "application error" on a call.
 */

export interface TwimlNode {
  name: string;
  attrs: Record<string, string>;
  children: TwimlNode[];
  /** Text directly inside the element (entities decoded, whitespace trimmed). */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

function parseAttrs(s: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of s.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    attrs[m[1]] = decode(m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/** Parses a TwiML document and returns its root element (normally <Response>). Throws on malformed XML. */
export function parseTwiml(xml: string): TwimlNode {
  const root: TwimlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: TwimlNode[] = [root];
  // Declarations, comments and CDATA sections first, then tags and text.
  const token = /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)([^>]*?)(\/?)>|([^<]+)/g;
  let last = 0;
  for (const m of xml.matchAll(token)) {
    if (m.index !== last) throw new Error(`malformed TwiML near offset ${last}`);
    last = m.index + m[0].length;
    const top = stack[stack.length - 1];
    if (m[1] !== undefined) top.text += m[1];
    else if (m[6] !== undefined) top.text += decode(m[6]);
    else if (m[3] !== undefined) {
      if (m[2]) {
        if (top.name !== m[3] || stack.length === 1) throw new Error(`unexpected </${m[3]}> in TwiML`);
        top.text = top.text.trim();
        stack.pop();
      } else {
        const node: TwimlNode = { name: m[3], attrs: parseAttrs(m[4]), children: [], text: '' };
        top.children.push(node);
        if (!m[5]) stack.push(node);
      }
    }
  }
  if (last !== xml.length) throw new Error(`malformed TwiML near offset ${last}`);
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1].name}> in TwiML`);
  const elements = root.children;
  if (elements.length !== 1) throw new Error('TwiML must have exactly one root element');
  return elements[0];
}

/** The texts of a messaging TwiML response's <Message> verbs (plain text or a nested <Body>). */
export function messageReplies(root: TwimlNode): Array<{ body: string; to?: string; from?: string }> {
  return root.children
    .filter((n) => n.name === 'Message')
    .map((n) => ({
      body: n.children.find((c) => c.name === 'Body')?.text ?? n.text,
      to: n.attrs.to,
      from: n.attrs.from,
    }));
}
