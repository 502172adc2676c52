import { UsageError } from './args.js';

export interface PrRef {
  owner: string;
  repo: string;
  number: number;
}

const REF = /^([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100})#([1-9][0-9]{0,9})$/;
const URL_REF = /^https:\/\/[^/]+\/([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100})\/pull\/([1-9][0-9]{0,9})\/?$/;

/** `owner/repo#123`, or the PR's web address. */
export function parsePrRef(text: string): PrRef {
  const m = REF.exec(text) ?? URL_REF.exec(text);
  if (!m) throw new UsageError(`--pr must look like owner/repo#123 or https://github.com/owner/repo/pull/123, got ${text}`);
  return { owner: m[1] ?? '', repo: m[2] ?? '', number: Number(m[3]) };
}
