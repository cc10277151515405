import type { NameCategory } from './name-fields';
import { nameCategoryOf, replaceName, type TransformContext } from './name-context';
import { xmlRedactSpec } from './xml-paths';
import { readStartTag, type XmlStartTag } from './xml-tag';
import { decodeXmlText, encodeXmlText, malformed } from './xml-text';

interface Frame {
  readonly name: string;
  /** Set when the element's text is a name (`<Driver>Anna Ek</Driver>`). */
  readonly textCategory: NameCategory | undefined;
  /** The name field this element is inside, for `<Driver><Name>...</Name></Driver>`. */
  readonly enclosing: NameCategory | undefined;
  readonly dropped: boolean;
}

/**
 * Rewrites one XML document: name attributes and name text replaced, redacted attributes and
 * elements dropped, every other byte copied as it was. Anything it cannot walk with certainty
 * (a DTD, an undefined entity, unbalanced tags) throws ANONYMISE_XML_MALFORMED rather than let a
 * name through unseen.
 */
export function transformXml(ctx: TransformContext, xml: string): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  let suppressed = 0;
  let roots = 0;
  const emit = (text: string) => {
    if (suppressed === 0) out.push(text);
  };
  const through = (from: number, terminator: string, what: string): number => {
    const at = xml.indexOf(terminator, from);
    if (at === -1) throw malformed(`unterminated ${what}`);
    return at + terminator.length;
  };
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt === -1 ? xml.length : lt;
    if (textEnd > i) emit(text(ctx, stack, xml.slice(i, textEnd), suppressed > 0));
    if (lt === -1) break;
    if (xml.startsWith('<!--', lt)) {
      i = through(lt + 4, '-->', 'comment');
      emit(xml.slice(lt, i));
    } else if (xml.startsWith('<![CDATA[', lt)) {
      i = through(lt + 9, ']]>', 'CDATA section');
      if (stack.length === 0) throw malformed('CDATA outside the root element');
      emit(cdata(ctx, stack[stack.length - 1]!, xml.slice(lt, i)));
    } else if (xml.startsWith('<?', lt)) {
      i = through(lt + 2, '?>', 'processing instruction');
      emit(xml.slice(lt, i));
    } else if (xml.startsWith('<!', lt)) {
      // A DTD could define entities that spell a name; the legacy simulator refuses them too.
      throw malformed('DOCTYPE and markup declarations are not accepted');
    } else if (xml.startsWith('</', lt)) {
      i = through(lt + 2, '>', 'end tag');
      const name = xml.slice(lt + 2, i - 1).trim();
      const frame = stack.pop();
      if (frame?.name !== name) throw malformed(`</${name}> does not close <${frame?.name ?? ''}>`);
      emit(xml.slice(lt, i));
      if (frame.dropped) suppressed -= 1;
    } else {
      const tag = readStartTag(xml, lt);
      if (stack.length === 0 && ++roots > 1) throw malformed('more than one root element');
      const frame = startTag(ctx, stack, tag, suppressed > 0, emit);
      if (frame.dropped) suppressed += 1;
      if (!tag.selfClosing) stack.push(frame);
      else if (frame.dropped) suppressed -= 1;
      i = tag.end;
    }
  }
  if (stack.length > 0) throw malformed(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (roots === 0) throw malformed('no root element');
  return out.join('');
}

function startTag(
  ctx: TransformContext,
  stack: readonly Frame[],
  tag: XmlStartTag,
  suppressed: boolean,
  emit: (text: string) => void,
): Frame {
  const parent = stack[stack.length - 1];
  const textCategory = nameCategoryOf(ctx, tag.name, parent?.enclosing);
  const frame = {
    name: tag.name,
    textCategory,
    enclosing: textCategory ?? parent?.enclosing,
    dropped: false,
  };
  if (suppressed) return frame;
  const chain = [...stack.map((f) => f.name), tag.name];
  const dropBy = xmlRedactSpec(ctx.redact, chain, stack.length === 0);
  if (dropBy !== undefined) {
    ctx.summary.redactedBy(dropBy);
    return { ...frame, dropped: true };
  }
  const parts = [`<${tag.name}`];
  for (const attr of tag.attributes) {
    const spec = xmlRedactSpec(ctx.redact, [...chain, attr.name], false);
    if (spec !== undefined) {
      ctx.summary.redactedBy(spec);
      continue;
    }
    const category = nameCategoryOf(ctx, attr.name, frame.enclosing);
    const value = category
      ? encodeXmlText(replaceName(ctx, category, attr.name, decodeXmlText(attr.raw)), attr.quote)
      : attr.raw;
    parts.push(`${attr.lead}${attr.name}${attr.equals}${attr.quote}${value}${attr.quote}`);
  }
  parts.push(tag.tail);
  emit(parts.join(''));
  return frame;
}

function text(ctx: TransformContext, stack: readonly Frame[], raw: string, suppressed: boolean): string {
  const frame = stack[stack.length - 1];
  if (frame === undefined) {
    if (raw.replace(/^\uFEFF/, '').trim() !== '') throw malformed('text outside the root element');
    return raw;
  }
  if (suppressed || frame.textCategory === undefined || raw.trim() === '') return raw;
  const lead = /^\s*/.exec(raw)![0];
  const trail = /\s*$/.exec(raw)![0];
  const name = decodeXmlText(raw.trim());
  return lead + encodeXmlText(replaceName(ctx, frame.textCategory, frame.name, name)) + trail;
}

function cdata(ctx: TransformContext, frame: Frame, section: string): string {
  const content = section.slice(9, -3);
  if (frame.textCategory === undefined || content.trim() === '') return section;
  const replaced = replaceName(ctx, frame.textCategory, frame.name, content.trim());
  return `<![CDATA[${replaced.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}
