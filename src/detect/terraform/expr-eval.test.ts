import { describe, expect, it } from 'vitest';
import { TerraformBudget } from './expr-budget.js';
import { evaluate } from './expr-eval.js';
import { moduleScope } from './module-scope.js';
import { parseHcl } from './hcl.js';

/** The scope of one file of HCL: its variables and locals. */
function scopeOf(text: string) {
  const hcl = parseHcl('main.tf', text);
  if (!hcl.ok) throw new Error(hcl.error.message);
  return moduleScope([{ path: 'main.tf', body: hcl.value }], { budget: new TerraformBudget() });
}
const value = (expr: string, text = '') => evaluate(`\${${expr}}`, scopeOf(text));

describe('Terraform functions, as Terraform evaluates them', () => {
  it.each([
    ['merge({ a = 1 }, null, { b = 2, a = 3 })', { a: 3, b: 2 }],
    ['lookup({ a = 1 }, "b", 7)', 7],
    ['coalesce(null, "", "x")', 'x'],
    ['coalescelist([], [1])', [1]],
    ['flatten([[1, [2]], 3])', [1, 2, 3]],
    ['concat([1], [2, 3])', [1, 2, 3]],
    ['zipmap(["a", "b"], [1, 2])', { a: 1, b: 2 }],
    ['tomap({ a = 1 })', { a: 1 }],
    ['keys({ b = 1, a = 2 })', ['a', 'b']],
    ['values({ b = 1, a = 2 })', [2, 1]],
    ['toset(["b", "a", "b"])', ['a', 'b']],
    ['[for k, v in { a = 1, b = 2 } : v * 2 if k != "a"]', [4]],
    ['{ for p in [{ n = "a", c = 1 }, { n = "b", c = 2 }] : p.n => p.c }', { a: 1, b: 2 }],
    ['[{ c = 1 }, { c = 2 }][*].c', [1, 2]],
    ['base64decode("ZzUueGxhcmdl")', 'g5.xlarge'],
    ['base64decode(base64encode("Standard_NC24ads_A100_v4"))', 'Standard_NC24ads_A100_v4'],
    ['sum([for p in [{ c = 1 }, { c = 2 }] : p.c])', 3],
    ['length(range(2, 10, 2))', 4],
    ['element(["a", "b"], 3)', 'b'],
    ['one([])', null],
    ['try({ a = 1 }.b, 5)', 5],
    ['can({ a = 1 }.b)', false],
    ['true ? 1 : 0', 1],
    ['format("%s-%d", "a", 2)', 'a-2'],
    // Width, zero padding, left justification, a sign and a cut string, as Go's fmt gives them.
    ['format("%05d|%-4d|%+d|%4s|%.2s|%08.3f", 42, 7, 3, "ab", "xyz", -1.5)', '00042|7   |+3|  ab|xy|-001.500'],
    ['length(format("%0999d", 1))', 999],
    ['jsondecode("{\\"a\\": [1]}").a[0]', 1],
    ['yamldecode("a: 2").a', 2],
    ['max([1, 5, 2]...)', 5],
    ['"%{ for x in [1, 2] }${x},%{ endfor }"', '1,2,'],
    ['"%{ if true }yes%{ else }no%{ endif }"', 'yes'],
  ])('%s', (expr, expected) => {
    expect(value(expr)).toEqual({ ok: true, value: expected });
  });

  it('try() and can() skip errors but not values unknown until applied', () => {
    expect(value('try(module.x.count, 5)')).toEqual({ ok: false, error: 'module.x.count, a module output' });
    expect(value('can(module.x.count)')).toEqual({ ok: false, error: 'module.x.count, a module output' });
  });

  it('keeps what is known beside what is not', () => {
    const text = 'locals {\n  g = { max = 4, subnets = module.vpc.private }\n}\n';
    expect(value('local.g.max', text)).toEqual({ ok: true, value: 4 });
    expect(value('length(merge(local.g, { x = 1 }))', text)).toEqual({ ok: true, value: 3 });
    expect(value('local.g', text)).toEqual({ ok: false, error: 'module.vpc.private, a module output' });
  });

  it.each(['length(format("%0999999999d", 1))', 'length(format("%#x", 255))', 'length(format("% d", 5))', 'length(format("%.3d", 5))'])(
    'a format it cannot tell exactly is not followed, never a wrong length: %s',
    (expr) => {
      expect(value(expr)).toMatchObject({ ok: false });
    },
  );

  it('base64decode() of what is not base64, or not UTF-8 once decoded, is an error', () => {
    expect(value('base64decode("g5.x")')).toMatchObject({ ok: false });
    expect(value('base64decode("/w==")')).toMatchObject({ ok: false });
  });

  it('a condition not known here gives a value only when both branches are that value', () => {
    expect(value('terraform.workspace == "prod" ? 2 : 2')).toEqual({ ok: true, value: 2 });
    expect(value('module.x.on ? { n = 1 } : { n = 1 }')).toEqual({ ok: true, value: { n: 1 } });
    expect(value('terraform.workspace == "prod" ? 3 : 1')).toMatchObject({ ok: false });
    expect(value('terraform.workspace == "prod" ? module.x.n : module.x.n')).toMatchObject({ ok: false });
    // A condition that is an error stays one, whatever the branches.
    expect(value('"x" ? 2 : 2')).toMatchObject({ ok: false });
  });
});

describe("a variable's type", () => {
  it('applies optional() defaults at every depth, for values left out or null', () => {
    const text = `variable "pools" {
  type = map(object({
    machine = string
    max     = optional(number, 3)
    gpu = optional(object({
      type  = string
      count = optional(number, 1)
    }))
    sharing = optional(object({ clients = optional(number, 2) }), {})
  }))
  default = {
    cpu = { machine = "e2-standard-8", max = null }
    l4  = { machine = "g2-standard-8", gpu = { type = "nvidia-l4" }, extra = true }
  }
}
`;
    expect(value('var.pools', text)).toEqual({
      ok: true,
      value: {
        cpu: { machine: 'e2-standard-8', max: 3, gpu: null, sharing: { clients: 2 } },
        l4: { machine: 'g2-standard-8', max: 3, gpu: { type: 'nvidia-l4', count: 1 }, sharing: { clients: 2 } },
      },
    });
  });

  it('converts numbers given as strings', () => {
    expect(value('var.n + 1', 'variable "n" {\n  type = number\n  default = "3"\n}\n')).toEqual({ ok: true, value: 4 });
  });
});
