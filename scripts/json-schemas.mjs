// JSON Schemas of the catalog and the policy, generated from their zod schemas so that editors
// (yaml-language-server: VS Code, JetBrains, Neovim) validate the files as gpu-justify does.
//   npm run schemas            writes schemas/*.schema.json from dist/ (built first)
// test/schemas checks that the committed files equal what src/ generates.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Draft 7: what yaml-language-server and most editors understand. */
const TARGET = 'draft-7';

const DESCRIPTIONS = {
  'gpu-workloads.schema.json': {
    title: 'gpu-justify workload catalog (gpu-workloads.yaml)',
    description: 'What each GPU workload must deliver; gpu-justify sizes capacity requests against it.',
  },
  'gpu-justify.schema.json': {
    title: 'gpu-justify policy (.github/gpu-justify.yml)',
    description: "How gpu-justify judges a repository's GPU capacity changes; read from the base branch.",
  },
};

/**
 * File name → JSON Schema, for the given zod module and the two zod schemas.
 * @param {typeof import('zod').z} z
 * @param {{ catalogSchema: import('zod').z.ZodType; policySchema: import('zod').z.ZodType }} schemas
 */
export function jsonSchemas(z, { catalogSchema, policySchema }) {
  /**
   * @param {keyof typeof DESCRIPTIONS} file
   * @param {import('zod').z.ZodType} schema
   */
  const build = (file, schema) => {
    const { $schema, ...rest } = z.toJSONSchema(schema, { io: 'input', target: TARGET });
    return { $schema, ...DESCRIPTIONS[file], ...rest };
  };
  return {
    'gpu-workloads.schema.json': build('gpu-workloads.schema.json', catalogSchema),
    'gpu-justify.schema.json': build('gpu-justify.schema.json', policySchema),
  };
}

/** The file's text: two-space JSON with a final newline. */
export function schemaText(schema) {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { z } = await import('zod');
  const { catalogSchema } = await import('../dist/workloads/catalog-schema.js');
  const { policySchema } = await import('../dist/workloads/policy-schema.js');
  for (const [file, schema] of Object.entries(jsonSchemas(z, { catalogSchema, policySchema }))) {
    const path = fileURLToPath(new URL(`../schemas/${file}`, import.meta.url));
    await writeFile(path, schemaText(schema));
    process.stdout.write(`wrote schemas/${file}\n`);
  }
}
