import { CONTROL_ACCESS_ERRORS, controlError, jsonContent, type OpenApiPart } from '@racedata/core';
import { controlOperation } from './control-paths';

const HTML = { 'text/html': { schema: { type: 'string' } } } as const;
const notModified = {
  description: 'If-None-Match named the ETag the page still has',
} as const;
const readOnly =
  'HEAD is answered too, with the same headers; a request with If-None-Match naming the current ETag ' +
  "is answered 304. The pages carry a Content-Security-Policy that lets them load only the simulator's " +
  'own images and stylesheet, and run no script. The control token, when set, is taken as by the ' +
  'console: the Authorization header, `?token=` or the console’s cookie.';

/** GET /_sim/docs/ and its pages (docs-site.ts): the documentation the console links. */
export function docsSitePaths(): OpenApiPart {
  return {
    paths: {
      '/_sim/docs/': {
        get: controlOperation({
          operationId: 'getDocsIndex',
          summary:
            'The documentation: every page of docs/ (and the README and changelog), with what each is for',
          description: `An HTML page linking each page served under /_sim/docs/. ${readOnly}`,
          responses: {
            '200': { description: 'The index', content: HTML },
            '304': notModified,
            ...CONTROL_ACCESS_ERRORS,
            '404': {
              description: 'The docs are not installed with this simulator (the npm package leaves them out)',
              content: jsonContent(controlError(['NOT_FOUND'])),
            },
          },
        }),
      },
      '/_sim/docs/{page}': {
        get: controlOperation({
          operationId: 'getDocsPage',
          summary: 'One docs page rendered to HTML, or an image a page shows',
          description:
            'Links between pages and to their headings (`#anchors`) lead to the pages served here; a link ' +
            `to a file of the repository that is not served is shown as text naming it. ${readOnly}`,
          parameters: [
            {
              name: 'page',
              in: 'path',
              required: true,
              description:
                'A file name from docs/ (`console.md`, `race-board.png`), `README.md` or `CHANGELOG.md`; never a path.',
              schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
            },
          ],
          responses: {
            '200': {
              description: 'The page (text/html) or image (image/png)',
              content: { ...HTML, 'image/png': { schema: { type: 'string' } } },
            },
            '304': notModified,
            ...CONTROL_ACCESS_ERRORS,
            '404': {
              description: 'No such page (anything but a listed file name), or the docs are not installed',
              content: jsonContent(controlError(['NOT_FOUND'])),
            },
          },
        }),
      },
    },
  };
}
