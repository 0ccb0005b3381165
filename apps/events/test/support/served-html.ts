/**
 * @module What a page's HTML says to a client that does not run its script
 * (curl, a crawler, a link preview): the attributes of its tags, its data
 * blocks cut where an HTML parser ends a `<script>` element, and its body's
 * text. A reader of this site's own markup (double-quoted attributes, as
 * Preact and Hono write them), not a general HTML parser.
 */

/** A start tag's attributes, names in lower case, values with character references decoded. */
export type TagAttributes = Record<string, string>;

const NAMED_REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and numeric references (`&#39;`, `&#x27;`). */
function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return NAMED_REFERENCES[name.toLowerCase()] ?? whole;
  });
}

function attributesOf(source: string): TagAttributes {
  const attributes: TagAttributes = {};
  for (const match of source.matchAll(/([^\s"'=<>/]+)(?:\s*=\s*"([^"]*)")?/g)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!(name in attributes)) attributes[name] = decodeReferences(match[2] ?? '');
  }
  return attributes;
}

/**
 * The attributes of every start tag `<name …>` in `html`, in document order.
 * Text inside `<script>` is searched too, on purpose: a `<script>` that text
 * smuggled into a data block counts as one.
 *
 * @example tagsNamed(html, 'meta').find((meta) => meta['name'] === 'description')?.['content']
 */
export function tagsNamed(html: string, name: string): TagAttributes[] {
  const pattern = new RegExp(`<${name}(?=[\\s/>])([^>]*)>`, 'gi');
  return [...html.matchAll(pattern)].map((match) => attributesOf(match[1] ?? ''));
}

/** The `content` of the `<meta>` whose `name` or `property` is `key`, or undefined. */
export function metaContent(html: string, key: string): string | undefined {
  return tagsNamed(html, 'meta').find((meta) => meta['name'] === key || meta['property'] === key)?.['content'];
}

/**
 * The text of every `<script type="<type>">` in `html`, each cut at the first
 * `</script` after its start tag, which is where an HTML parser ends it
 * whatever the JSON inside meant.
 */
export function scriptBlocks(html: string, type: string): string[] {
  const blocks: string[] = [];
  for (const match of html.matchAll(/<script(?=[\s>])([^>]*)>/gi)) {
    if (attributesOf(match[1] ?? '')['type'] !== type) continue;
    const start = (match.index ?? 0) + match[0].length;
    const end = html.toLowerCase().indexOf('</script', start);
    blocks.push(html.slice(start, end < 0 ? html.length : end));
  }
  return blocks;
}

/**
 * The text a person reads in `<body>` (or in all of `html` when it is a
 * fragment without one): scripts dropped, tags removed, character references
 * decoded, runs of whitespace as one space.
 */
export function bodyText(html: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  const withoutScripts = body.replace(/<script[\s\S]*?<\/script\s*>/gi, ' ');
  return decodeReferences(withoutScripts.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}
