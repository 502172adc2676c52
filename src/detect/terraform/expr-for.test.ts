import { describe, expect, it } from 'vitest';
import { TerraformBudget } from './expr-budget.js';
import { evaluate, evalSource } from './expr-eval.js';
import type { Scope, Value } from './expr-eval.js';

const scope = (vars: Record<string, Value>): Scope => ({
  variable: (name) => {
    if (!(name in vars)) throw new Error(`no ${name}`);
    return vars[name] ?? null;
  },
  local: () => null,
  bound: new Map(),
  budget: new TerraformBudget(),
});

describe('Terraform for expressions', () => {
  const pools = [
    { name: 'gpu', count: 2 },
    { name: 'cpu', count: 5 },
  ];

  it('build tuples over lists, with an if', () => {
    expect(evalSource('[for p in var.pools : p.count * 8 if p.name == "gpu"]', scope({ pools }))).toEqual([16]);
    expect(evalSource('[for i, p in var.pools : "${i}-${p.name}"]', scope({ pools }))).toEqual(['0-gpu', '1-cpu']);
  });

  it('build objects over maps, in key order', () => {
    const groups = { b: { max: 2 }, a: { max: 4 } };
    expect(evalSource('{for k, g in var.groups : k => g.max}', scope({ groups }))).toEqual({ a: 4, b: 2 });
    expect(evalSource('[for g in var.groups : g.max]', scope({ groups }))).toEqual([4, 2]);
  });

  it('group values per key with "..."', () => {
    const r = evaluate('${{for p in var.pools : (p.count > 3 ? "big" : "small") => p.name...}}', scope({ pools }));
    expect(r).toEqual({ ok: true, value: { big: ['cpu'], small: ['gpu'] } });
  });
});
