import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { kitPath } from '../../src/paths.js';
import { rules } from '../../src/rules.js';
import { fieldRows, renderOpenApi, typeSummary, type OpenApiDocument } from './openapi-pages.js';
import { ruleLink } from './rules-page.js';

const tiny: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Tiny', version: '1' },
  paths: {
    '/api/things': {
      post: {
        operationId: 'makeThing',
        summary: 'Make a thing',
        parameters: [
          {
            name: 'timestamp',
            in: 'query',
            required: true,
            description: 'ms\nsince epoch',
            schema: { type: 'integer' },
            example: 5,
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                title: 'ThingList',
                type: 'array',
                maxItems: 20,
                items: {
                  type: 'object',
                  required: ['side'],
                  properties: {
                    side: { enum: ['BUY', 'SELL'], description: 'a | b' },
                    tags: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } } },
                  },
                },
              },
              examples: { one: { summary: 'One thing', value: [{ side: 'BUY' }] } },
            },
          },
        },
        responses: { '200': { description: 'Done.' } },
        'x-rules': ['SIG-REQUIRED'],
      },
    },
  },
};

const link = (id: string) => `[${id}](./rules.md#${id.toLowerCase()})`;

describe('renderOpenApi', () => {
  const pages = renderOpenApi(tiny, link);
  const byFile = new Map(pages.map((p) => [p.file, p.markdown]));

  it('writes an overview, one page per operation and a schemas page, the overview naming them as children', () => {
    expect([...byFile.keys()]).toEqual(['http-api.md', 'http-api-makeThing.md', 'http-api-schemas.md']);
    expect(byFile.get('http-api.md')).toContain(
      'children:\n  - ./http-api-makeThing.md\n  - ./http-api-schemas.md\n---',
    );
    expect(byFile.get('http-api.md')).toContain('| POST | [`/api/things`](./http-api-makeThing.md) | Make a thing |');
  });

  it('renders parameters, body fields (nested, flattened), examples, responses and rules', () => {
    const page = byFile.get('http-api-makeThing.md') ?? '';
    expect(page).toContain('| `timestamp` | query | yes | integer | ms since epoch | `5` |');
    expect(page).toContain('| `[].side` | one of `BUY`, `SELL` | yes | a \\| b |');
    expect(page).toContain('| `[].tags[].k` | string | no |  |');
    expect(page).toContain('Example `one`: One thing\n\n```json\n[\n  {\n    "side": "BUY"\n  }\n]\n```');
    expect(page).toContain('### 200\n\nDone.');
    expect(page).toContain('- [SIG-REQUIRED](./rules.md#sig-required)');
    expect(byFile.get('http-api-schemas.md')).toContain('## ThingList');
  });

  it('fails for a document without operations', () => {
    expect(() => renderOpenApi({ ...tiny, paths: {} }, link)).toThrow(/no operations/);
  });
});

describe('typeSummary and fieldRows', () => {
  it('summarises alternatives, patterns, bounds and defaults', () => {
    expect(typeSummary({ anyOf: [{ type: 'number' }, { type: 'string', pattern: '^[0-9]+$' }] })).toBe(
      'number, or string (pattern `^[0-9]+$`)',
    );
    expect(typeSummary({ type: 'string', minLength: 1, maxLength: 255, default: 'x' })).toBe(
      'string (1 to 255 characters, default `"x"`)',
    );
    expect(typeSummary({ type: 'array', items: { title: 'Order' }, maxItems: 20 })).toBe(
      'array of Order (at most 20 items)',
    );
    expect(typeSummary({ type: 'string', minLength: 1 })).toBe('string (at least 1 character)');
  });

  it('merges allOf parts and their required lists', () => {
    const rows = fieldRows({
      allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } } }],
    });
    expect(rows.map((r) => [r[0], r[2]])).toEqual([
      ['`a`', 'yes'],
      ['`b`', 'no'],
    ]);
  });
});

describe('the real spec/openapi.yaml', () => {
  it('renders every operation with links only to rules the catalog has', async () => {
    const doc = (await SwaggerParser.dereference(kitPath('spec', 'openapi.yaml'))) as unknown as OpenApiDocument;
    const known = rules();
    const pages = renderOpenApi(doc, (id) => {
      if (!known.has(id)) throw new Error(`unknown rule ${id}`);
      return ruleLink(id);
    });
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const all = pages.map((p) => p.markdown).join('\n');
    for (const path of Object.keys(doc.paths ?? {})) expect(all).toContain(`# POST ${path}`);
  });
});
