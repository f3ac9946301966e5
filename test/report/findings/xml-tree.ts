// A strict reader for the XML the findings reports write: it checks well-formedness (XML 1.0
// characters only, one root, matched tags, quoted and unique attributes, only the five named
// entities and character references to legal characters, no `]]>` in text) and returns the
// element tree with references decoded, so tests ask questions of elements, not of regexes.
// Non-goals: DTDs, comments, CDATA, processing instructions other than the XML declaration,
// namespaces — the writer emits none, so any of them is an error here.

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const ILLEGAL_CHARACTER =
  // oxlint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NAME = '[A-Za-z_:][A-Za-z0-9_.:-]*';
const REFERENCE = '&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);';
const ATTRIBUTE = new RegExp(
  `\\s+(${NAME})\\s*=\\s*(?:"((?:[^<&"]|${REFERENCE})*)"|'((?:[^<&']|${REFERENCE})*)')`,
  'y',
);
const START_TAG = new RegExp(`<(${NAME})`, 'y');
const TAG_END = /\s*(\/?)>/y;
const END_TAG = new RegExp(`</(${NAME})\\s*>`, 'y');
const TEXT = new RegExp(`(?:[^<&]|${REFERENCE})*`, 'y');
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string): string {
  return raw.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[a-z]+);/g, (_, body: string) => {
    if (!body.startsWith('#')) return NAMED[body] ?? '';
    const code = body.startsWith('#x') ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    const character = String.fromCodePoint(code);
    if (code > 0x10ffff || ILLEGAL_CHARACTER.test(character) || (code >= 0xd800 && code <= 0xdfff))
      throw new Error(`reference to an illegal character &${body};`);
    return character;
  });
}

function match(pattern: RegExp, xml: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(xml);
}

function readStartTag(xml: string, at: number): { element: XmlElement; end: number; empty: boolean } {
  const start = match(START_TAG, xml, at);
  if (start === null) throw new Error(`bad start tag at ${at}`);
  const attributes: Record<string, string> = {};
  let position = at + start[0].length;
  for (
    let attribute = match(ATTRIBUTE, xml, position);
    attribute !== null;
    attribute = match(ATTRIBUTE, xml, position)
  ) {
    const name = attribute[1] as string;
    if (name in attributes) throw new Error(`attribute ${name} twice at ${position}`);
    attributes[name] = decode(attribute[2] ?? attribute[3] ?? '');
    position += attribute[0].length;
  }
  const close = match(TAG_END, xml, position);
  if (close === null)
    throw new Error(`bad tag <${start[1]}> at ${at}: ${JSON.stringify(xml.slice(position, position + 40))}`);
  return {
    element: { name: start[1] as string, attributes, children: [], text: '' },
    end: position + close[0].length,
    empty: close[1] === '/',
  };
}

/** Parses `xml` or throws saying where it is not well-formed. */
export function parseXml(xml: string): XmlElement {
  if (ILLEGAL_CHARACTER.test(xml)) throw new Error(`illegal character at ${xml.search(ILLEGAL_CHARACTER)}`);
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  let position = declaration?.[0].length ?? 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (position < xml.length) {
    if (stack.length === 0) {
      if (root !== null) {
        if (/^\s*$/.test(xml.slice(position))) break;
        throw new Error(`content after the root element at ${position}`);
      }
    } else {
      const text = match(TEXT, xml, position)?.[0] ?? '';
      if (text.includes(']]>')) throw new Error(`]]> in text at ${position}`);
      (stack.at(-1) as XmlElement).text += decode(text);
      position += text.length;
      if (position >= xml.length) break;
    }
    const end = match(END_TAG, xml, position);
    if (end !== null) {
      const open = stack.pop();
      if (open?.name !== end[1]) throw new Error(`</${end[1]}> closes <${open?.name ?? 'nothing'}> at ${position}`);
      position += end[0].length;
      continue;
    }
    const tag = readStartTag(xml, position);
    if (stack.length === 0 && root !== null) throw new Error(`a second root element at ${position}`);
    if (stack.length === 0) root = tag.element;
    else (stack.at(-1) as XmlElement).children.push(tag.element);
    if (!tag.empty) stack.push(tag.element);
    position = tag.end;
  }
  if (stack.length > 0 || root === null) throw new Error(`unclosed <${stack.at(-1)?.name ?? 'root'}>`);
  return root;
}
