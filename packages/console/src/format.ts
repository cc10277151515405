/** Pretty JSON, or the text as it came when it is not JSON. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * XML with one element per line, indented by depth. A display aid only: text content stays on
 * its element's line and nothing is re-escaped, so what is shown is what was sent.
 */
export function indentXml(xml: string): string {
  const tokens = xml.replace(/>\s*</g, '><').split(/(?=<)|(?<=>)/);
  const lines: string[] = [];
  let depth = 0;
  for (const token of tokens) {
    if (token.trim() === '') continue;
    const closing = token.startsWith('</');
    const opening = token.startsWith('<') && !closing && !token.startsWith('<?') && !token.startsWith('<!');
    const selfClosing = token.endsWith('/>');
    if (closing) depth = Math.max(0, depth - 1);
    if (!token.startsWith('<') && lines.length > 0) {
      // Text: keep it on the line of the element it belongs to.
      lines[lines.length - 1] += token;
      continue;
    }
    if (closing && lines.length > 0 && /^\s*<[^/!?][^>]*>[^<]*$/.test(lines[lines.length - 1] ?? '')) {
      lines[lines.length - 1] += token;
      continue;
    }
    lines.push('  '.repeat(depth) + token);
    if (opening && !selfClosing) depth += 1;
  }
  return lines.join('\n');
}

export function formatPayload(text: string): string {
  return text.trimStart().startsWith('<') ? indentXml(text) : prettyJson(text);
}

/** HH:MM:SS.mmm of an ISO time, in the browser's zone. */
export function clockTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Why a text is not a well-formed XML document, or undefined when it is. */
export function xmlProblem(text: string): string | undefined {
  if (text.trim() === '') return 'the XML document is empty';
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (!error) return undefined;
  const detail = (error.textContent ?? '').replace(/\s+/g, ' ').trim();
  return `not well-formed XML: ${detail.slice(0, 200)}`;
}

/** Why a text is not JSON, or undefined when it parses. */
export function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    return `not valid JSON: ${(err as Error).message}`;
  }
}
