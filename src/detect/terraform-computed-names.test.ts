import { describe, expect, it } from 'vitest';
import { hclBlocks } from './kit/signal-scan/hcl-module.js';
import { computedNameNotes } from './terraform-computed-names.js';

/** Pools of clouds no parser reads, by resource type and machine argument. */
const POOLS = [
  ['scaleway_k8s_pool', 'node_type'],
  ['ovh_cloud_project_kube_nodepool', 'flavor_name'],
  ['digitalocean_kubernetes_node_pool', 'size'],
  ['aws_instance', 'instance_type'],
] as const;

/** The same machine name written as Terraform computes it. */
const SPELLINGS: readonly [string, (name: string) => string][] = [
  ['join', (n) => `join("", [${JSON.stringify(n.slice(0, 3))}, ${JSON.stringify(n.slice(3))}])`],
  ['unicode escapes', (n) => `"${[...n].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`],
  ['base64decode', (n) => `base64decode("${Buffer.from(n).toString('base64')}")`],
  ['replace', (n) => `replace(${JSON.stringify(n.replace(/-/g, '#'))}, "#", "-")`],
  ['upper', (n) => `upper(${JSON.stringify(n.toLowerCase())})`],
];

const pool = (type: string, arg: string, value: string) => `resource "${type}" "workers" {\n  ${arg} = ${value}\n  max_nodes = 4\n}\n`;
const notes = (text: string) => computedNameNotes('main.tf', text, hclBlocks(text));

describe('a machine type Terraform computes, in a pool no parser reads', () => {
  for (const [type, arg] of POOLS)
    for (const [how, spell] of SPELLINGS) {
      it(`${type}: a GPU type by ${how} is named, with what it evaluates to`, () => {
        const found = notes(pool(type, arg, spell('H100-SXM-2-80G')));
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({ line: 2, reason: 'unaccounted-signal', subject: `${type}.workers` });
        expect(found[0]?.needs).toContain('H100-SXM-2-80G');
      });

      it(`${type}: a CPU type by ${how} is no note`, () => {
        expect(notes(pool(type, arg, spell('DEV1-M')))).toEqual([]);
      });
    }

  it('a machine argument computed from what is not known here (a data source) is named', () => {
    const computed = notes(pool('scaleway_k8s_pool', 'node_type', 'element(data.scaleway_types.gpu.names, 0)'));
    expect(computed).toHaveLength(1);
    expect(computed[0]?.needs).toContain('not known statically');
  });

  it('leaves plain values and references to variables and locals to the other checks', () => {
    for (const value of ['"L4-1-24G"', 'data.scaleway_types.gpu[0].name', 'var.node_type', 'local.types[0]', 'join("", [var.a, "x"])', '4'])
      expect(notes(pool('scaleway_k8s_pool', 'node_type', value))).toEqual([]);
  });

  it('does not name other arguments it cannot evaluate (a name from a resource attribute)', () => {
    expect(notes(pool('scaleway_k8s_pool', 'name', 'format("%s-pool", random_id.x.hex)'))).toEqual([]);
  });
});
