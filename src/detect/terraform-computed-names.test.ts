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
  ['an indented heredoc in chomp', (n) => `chomp(<<-EOT\n    ${n}\n    EOT\n  )`],
  ['a heredoc in trimspace, its closer indented', (n) => `trimspace(<<EOT\n${n}\n  EOT\n  )`],
  ['a JSON heredoc in jsondecode', (n) => `jsondecode(<<EOF\n{"type": ${JSON.stringify(n)}}\nEOF\n  ).type`],
  ['a heredoc with a template directive', (n) => `chomp(<<-EOT\n    %{ if true }${n}%{ else }none%{ endif }\n    EOT\n  )`],
  ['a heredoc on its own, then chomped by replace', (n) => `replace(<<-EOT\n\t${n}\n\tEOT\n  , "\\n", "")`],
  ['a join broken over lines', (n) => `join("", [\n    ${JSON.stringify(n.slice(0, 3))},\n    ${JSON.stringify(n.slice(3))},\n  ])`],
  ['a join on one line of a CRLF file', (n) => `join("", [${JSON.stringify(n.slice(0, 3))}, ${JSON.stringify(n.slice(3))}])\r`],
  [
    'a join broken over lines, CRLF',
    (n) => `join("", [\r\n    ${JSON.stringify(n.slice(0, 3))},\r\n    ${JSON.stringify(n.slice(3))}\r\n  ])`,
  ],
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

  it('a heredoc left open to the end of the block is a machine type not known statically', () => {
    const computed = notes(pool('scaleway_k8s_pool', 'node_type', 'chomp(<<-EOT\n    DEV1-M\n  )'));
    expect(computed).toHaveLength(1);
    expect(computed[0]?.needs).toContain('not known statically');
  });

  it('reads no line of a heredoc body as an argument of its own', () => {
    const body = 'user_data = <<-EOT\n    instance_type = data.x.y\n    EOT\n  node_type = "DEV1-M"';
    expect(notes(pool('scaleway_k8s_pool', 'tags', body))).toEqual([]);
  });

  it('still reads the arguments of an object written over lines', () => {
    const found = notes(pool('scaleway_k8s_pool', 'config', `{\n    node_type = join("", ["H10", "0-SXM-2-80G"])\n  }`));
    expect(found).toHaveLength(1);
    expect(found[0]?.line).toBe(3);
  });

  it('does not name other arguments it cannot evaluate (a name from a resource attribute)', () => {
    expect(notes(pool('scaleway_k8s_pool', 'name', 'format("%s-pool", random_id.x.hex)'))).toEqual([]);
  });
});
