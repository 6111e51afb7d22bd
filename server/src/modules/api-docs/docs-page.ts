import { renderMarkdown } from '../../lib/markdown.js';
import type { JsonSchema, OpenApiDocument, Operation } from './openapi.js';

/**
 * GET /api/docs: the OpenAPI document as one page, rendered on the server once. No script at all
 * (the site's CSP allows only its own scripts, and a page to read needs none), no CDN, nothing in
 * the web app's bundle; its styles are inline (the CSP allows inline styles).
 */
export async function renderDocsPage(doc: OpenApiDocument, openApiPath: string): Promise<string> {
  const sections: string[] = [];
  const toc: string[] = [];
  for (const tag of doc.tags) {
    const ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod)
        .filter(([, op]) => op.tags.includes(tag.name))
        .map(([method, op]) => ({ path, method, op })),
    );
    toc.push(
      `<li><a href="#tag-${esc(tag.name)}">${esc(tag.name)}</a><ul>${ops
        .map(
          ({ path, method, op }) =>
            `<li><a href="#${esc(op.operationId)}"><b>${method.toUpperCase()}</b> ${esc(path)}</a></li>`,
        )
        .join('')}</ul></li>`,
    );
    sections.push(
      `<h2 id="tag-${esc(tag.name)}">${esc(tag.name)}</h2>${ops.map(({ path, method, op }) => operationHtml(path, method, op)).join('')}`,
    );
  }
  const intro = await renderMarkdown(doc.info.description);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<style>${STYLE}</style></head>
<body><div class="layout"><nav aria-label="Endpoints"><ul>${toc.join('')}</ul></nav>
<main><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
<p>OpenAPI 3.1 document: <a href="${esc(openApiPath)}">${esc(openApiPath)}</a> (for code generators and API clients).</p>
${intro}
${sections.join('\n')}
</main></div></body></html>`;
}

function operationHtml(path: string, method: string, op: Operation): string {
  const parts = [
    `<section class="op" id="${esc(op.operationId)}">`,
    `<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3>`,
    `<p>${esc(op.summary)}</p><p class="who">${esc(op.description)}</p>`,
  ];
  if (op.parameters?.length) {
    parts.push(
      `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>type</th></tr></thead><tbody>${op.parameters
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code>${p.required ? '' : ' (optional)'}</td><td>${p.in}</td><td><code>${esc(typeText(p.schema, ''))}</code>${p.description ? ` ${esc(p.description)}` : ''}</td></tr>`,
        )
        .join('')}</tbody></table>`,
    );
  }
  if (op.requestBody) {
    for (const [type, { schema }] of Object.entries(op.requestBody.content)) {
      parts.push(`<h4>Body <small>${esc(type)}</small></h4><pre>${esc(typeText(schema, ''))}</pre>`);
    }
  }
  parts.push('<h4>Responses</h4><dl>');
  for (const [status, response] of Object.entries(op.responses)) {
    parts.push(`<dt>${esc(status)}</dt><dd>${esc(response.description)}`);
    for (const [type, media] of Object.entries(response.content ?? {})) {
      const schema = media.schema.$ref ? '' : `<pre>${esc(typeText(media.schema, ''))}</pre>`;
      const example = media.example ? ` e.g. <code>${esc(JSON.stringify(media.example))}</code>` : '';
      parts.push(`<div><small>${esc(type)}</small>${example}${schema}</div>`);
    }
    parts.push('</dd>');
  }
  parts.push('</dl></section>');
  return parts.join('');
}

/** A JSON Schema as a TypeScript-like type with its limits, which people read faster than JSON. */
export function typeText(schema: JsonSchema, indent: string): string {
  const s = schema;
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const options = (s.anyOf ?? s.oneOf) as JsonSchema[];
    return options.map((o) => typeText(o, indent)).join(' | ');
  }
  if (Array.isArray(s.allOf)) return (s.allOf as JsonSchema[]).map((o) => typeText(o, indent)).join(' & ');
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const type = s.type;
  if (Array.isArray(type)) return type.map((t) => typeText({ ...s, type: t }, indent)).join(' | ');
  if (type === 'object') {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s.required as string[] | undefined) ?? []);
    const inner = indent + '  ';
    const lines = Object.entries(properties).map(
      ([name, p]) => `${inner}${name}${required.has(name) ? '' : '?'}: ${typeText(p, inner)}`,
    );
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      lines.push(`${inner}[key: string]: ${typeText(s.additionalProperties as JsonSchema, inner)}`);
    }
    return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n${indent}}`;
  }
  if (type === 'array') {
    const items = typeText((s.items ?? {}) as JsonSchema, indent);
    return `${items.includes(' | ') ? `(${items})` : items}[]${limits(s, 'minItems', 'maxItems', ' items')}`;
  }
  if (type === 'string') {
    const extra = [
      limits(s, 'minLength', 'maxLength', ' chars'),
      s.format ? ` ${String(s.format)}` : '',
      s.pattern ? ` /${String(s.pattern)}/` : '',
      s.contentMediaType ? ` (${String(s.contentMediaType)})` : '',
    ];
    return `string${extra.join('')}`;
  }
  if (type === 'integer' || type === 'number') {
    const min =
      s.minimum ?? (s.exclusiveMinimum !== undefined ? `>${String(s.exclusiveMinimum)}` : undefined);
    const max = s.maximum === Number.MAX_SAFE_INTEGER ? undefined : s.maximum;
    const range =
      min !== undefined || max !== undefined ? ` (${String(min ?? '')}..${String(max ?? '')})` : '';
    return `${type}${range}`;
  }
  if (type === 'boolean' || type === 'null') return type;
  return 'any';
}

function limits(s: JsonSchema, minKey: string, maxKey: string, unit: string): string {
  const min = s[minKey];
  const max = s[maxKey];
  if (min === undefined && max === undefined) return '';
  return ` (${String(min ?? 0)}..${String(max ?? '')}${unit})`;
}

function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d1f21;background:#fff}
.layout{display:flex;align-items:flex-start}
nav{position:sticky;top:0;max-height:100vh;overflow:auto;width:22rem;flex:none;padding:1rem;border-right:1px solid #ddd;font-size:13px}
nav ul{list-style:none;padding-left:.75rem;margin:.25rem 0}
main{padding:1rem 2rem;max-width:60rem;min-width:0}
a{color:#0b5cad}
pre{background:#f5f5f5;padding:.5rem;overflow:auto;font-size:13px}
.op{border-top:1px solid #ddd;padding:.5rem 0}
.method{display:inline-block;min-width:3.5rem;text-align:center;border-radius:4px;color:#fff;background:#0a6e3d;font-size:13px;padding:0 .25rem}
.method.post{background:#0b5cad}
.who{color:#555}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
dt{font-weight:bold}dd{margin:0 0 .5rem 1rem}
@media (max-width:50rem){.layout{display:block}nav{position:static;width:auto;max-height:none;border:0}}
@media (prefers-color-scheme:dark){body{background:#1b1d1f;color:#e6e6e6}pre{background:#26292c}a{color:#6cb3ff}.who{color:#aaa}nav,td,th,.op{border-color:#444}}
`;
