import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

const HEADER = `/**
 * Types of the Posthorn API, generated from docs/openapi.json by openapi-typescript
 * (\`npm run gen:openapi\`); do not edit. client.ts builds the typed client on them.
 */
`;

/** The TypeScript types of the document's paths and schemas, formatted as the repository formats code. */
export async function renderClientTypes(doc: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]);
  const source = HEADER + astToString(ast);
  const options = (await resolveConfig('src/client/openapi-types.ts')) ?? {};
  return format(source, { ...options, parser: 'typescript' });
}
