import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { fail, ok } from '../../domain/result.js';
import { guidellmReportSchema, guidellmRows, isGuidellmReport } from './guidellm.js';
import { byRate } from './table.js';
import type { LoadTestImport } from './table.js';
import { isVllmBenchResult, vllmBenchRow, vllmBenchSchema } from './vllm-bench.js';

export type { LoadTestImport } from './table.js';

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join('.') || 'top level'}: ${issue?.message ?? 'invalid'}`;
}

/** JSON, or JSON lines (`--append-result`): each line one document. */
function parseDocuments(text: string): unknown[] | null {
  try {
    const json: unknown = JSON.parse(text);
    return Array.isArray(json) ? (json as unknown[]) : [json];
  } catch {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    try {
      return lines.map((l) => JSON.parse(l) as unknown);
    } catch {
      return null;
    }
  }
}

/** Reads a GuideLLM report or `vllm bench serve` results into one rate → latency table. */
export function importLoadTest(text: string, file: string): LoadTestImport {
  const docs = parseDocuments(text);
  if (docs === null || docs.length === 0) return fail(`${file}: neither JSON nor JSON lines`);
  if (docs.length === 1 && isGuidellmReport(docs[0])) {
    const parsed = guidellmReportSchema.safeParse(docs[0]);
    if (!parsed.success) return fail(`${file}: not a GuideLLM report (${firstIssue(parsed.error)})`);
    const rows = guidellmRows(parsed.data).sort(byRate);
    if (rows.length === 0) return fail(`${file}: the GuideLLM report has no benchmark with a request rate`);
    return ok({ format: 'guidellm', rows });
  }
  if (docs.every(isVllmBenchResult)) {
    const rows = [];
    for (const [i, doc] of docs.entries()) {
      const parsed = vllmBenchSchema.safeParse(doc);
      if (!parsed.success) return fail(`${file}: result ${i + 1} is not a vllm bench result (${firstIssue(parsed.error)})`);
      rows.push(vllmBenchRow(parsed.data));
    }
    return ok({ format: 'vllm-bench', rows: rows.sort(byRate) });
  }
  return fail(`${file}: not a GuideLLM report ("benchmarks") nor vllm bench results ("request_throughput", "completed")`);
}

export async function readLoadTest(file: string, label = file): Promise<LoadTestImport> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return fail(`${label}: cannot be read`);
  }
  return importLoadTest(text, label);
}
