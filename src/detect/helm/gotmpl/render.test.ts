import { describe, expect, it } from 'vitest';
import { renderChartTemplate } from './render.js';
import type { ChartTemplate } from './render.js';

const values = {
  gpus: 8,
  name: 'pool',
  big: 1000000,
  empty: '',
  pools: [
    { name: 'a', gpus: 2 },
    { name: 'b', gpus: 4 },
  ],
  byName: { z: { gpus: 1 }, a: { gpus: 3 } },
  on: true,
};

function text(template: string, more: Partial<ChartTemplate> = {}): string {
  const r = renderChartTemplate({ text: template, values, ...more });
  if (!r.ok) throw new Error(`${r.error.why} at ${r.error.line}`);
  return r.value.text;
}

function failure(template: string, more: Partial<ChartTemplate> = {}) {
  const r = renderChartTemplate({ text: template, values, ...more });
  if (r.ok) throw new Error(`rendered: ${r.value.text}`);
  return r.error;
}

// Expected outputs are what text/template with Sprig and Helm's functions prints for these values
// (numbers out of values are float64: 1000000 prints as 1e+06, while toYaml writes it whole).
describe('Go templates as Helm renders them', () => {
  it.each([
    ['{{ .Values.gpus }}', '8'],
    ['{{ .Values.big }}', '1e+06'],
    ['{{ toYaml .Values.big }}', '1000000'],
    ['{{ .Values.big | int }}', '1000000'],
    ['{{ .Values.missing }}', ''],
    ['{{ .Values.gpus | quote }}', '"8"'],
    ['{{ .Values.name | squote }}', "'pool'"],
    ['{{ default 4 .Values.missing }}', '4'],
    ['{{ .Values.empty | default "x" }}', 'x'],
    ['{{ .Values.gpus | default 4 }}', '8'],
    ['{{ if .Values.on }}y{{ else }}n{{ end }}', 'y'],
    ['{{ if not .Values.on }}y{{ else if .Values.gpus }}g{{ else }}n{{ end }}', 'g'],
    ['{{ if and .Values.on .Values.missing }}y{{ else }}n{{ end }}', 'n'],
    ['{{ or .Values.missing .Values.name }}', 'pool'],
    ['{{ range .Values.pools }}{{ .name }}={{ .gpus }};{{ end }}', 'a=2;b=4;'],
    ['{{ range $i, $p := .Values.pools }}{{ $i }}:{{ $p.name }};{{ end }}', '0:a;1:b;'],
    ['{{ range $k, $v := .Values.byName }}{{ $k }}={{ $v.gpus }};{{ end }}', 'a=3;z=1;'],
    ['{{ range .Values.missing }}x{{ else }}none{{ end }}', 'none'],
    ['{{ range $p := .Values.pools }}{{ if eq $p.name "b" }}{{ break }}{{ end }}{{ $p.name }}{{ end }}', 'a'],
    ['{{ with .Values.byName.a }}{{ .gpus }}{{ end }}', '3'],
    ['{{ with .Values.missing }}x{{ else }}y{{ end }}', 'y'],
    ['{{ $x := 3 }}{{ $x = add $x 1 }}{{ $x }}', '4'],
    ['{{ range .Values.pools }}{{ $.Values.name }}{{ end }}', 'poolpool'],
    ['{{ eq .Values.name "pool" }} {{ ne .Values.gpus 8.0 }}', 'true false'],
    ['{{ hasKey .Values "gpus" }} {{ hasKey .Values "nope" }}', 'true false'],
    ['{{ (dict "a" 1 "b" (list 1 2)).b }}', '[1 2]'],
    ['{{ printf "%s-%d-%v-%05.1f" .Values.name 3 .Values.gpus 2.25 }}', 'pool-3-8-002.2'],
    ['{{ printf "%d" .Values.gpus }}', '%!d(float64=8)'],
    // A `*` width must be an int: a values number is float64 in Go, so BADWIDTH, the argument spent.
    ['{{ printf "%0*d" .Values.gpus 1 }}', '%!(BADWIDTH)1'],
    ['{{ printf "%0*d|%*d|" 4 1 -3 2 }}', '0001|2  |'],
    ['{{ required "gpus" .Values.gpus }}', '8'],
    ['{{ len .Values.pools }} {{ index .Values.pools 1 "name" }}', '2 b'],
    ['{{ tpl "{{ .Values.name }}-x" . }}', 'pool-x'],
    ['{{ .Release.Name }}/{{ .Chart.Name }}', 'release-name/c'],
    ['a\n  {{- .Values.gpus }}\n  {{- /* gone */ -}}\nb', 'a8b'],
    ['{{ toYaml .Values.byName | nindent 2 }}', '\n  a:\n    gpus: 3\n  z:\n    gpus: 1'],
    ['{{ .Values.name | indent 2 }}', '  pool'],
    ['{{ .Values.name | upper | trunc 2 }}{{ "x-" | trimSuffix "-" }}', 'POx'],
    ['{{ int "8" }} {{ int64 "0x10" }} {{ mul 2 .Values.gpus }} {{ div 9 2 }} {{ max 1 5 3 }}', '8 16 16 4 5'],
    ['{{ ternary "a" "b" true }} {{ coalesce .Values.missing "" "c" }} {{ kindOf .Values.gpus }}', 'a c float64'],
    ['{{ range until 3 }}{{ . }}{{ end }}', '012'],
    ['{{ `raw \\n` }}|{{ "esc\\t" | quote }}|{{ 0x10 }}|{{ 1e3 }}|{{ \'a\' }}', 'raw \\n|"esc\\t"|16|1000|97'],
    ['{{ (index .Values.pools 0).name }}|{{ (dict "a" (dict "b" 2)).a.b }}', 'a|2'],
    ['{{ define "x" }}in{{ end }}{{ template "x" }}|{{ block "y" . }}blk{{ end }}', 'in|blk'],
    ['{{ range $i, $p := .Values.pools }}{{ if eq $i 0 }}{{ continue }}{{ end }}{{ $p.name }}{{ end }}', 'b'],
    ['x  {{- /* c */ -}}  y', 'xy'],
    ['{{ $m := dict }}{{ $_ := set $m "k" 1 }}{{ $m.k }} {{ get $m "nope" | quote }}', '1 ""'],
  ])('%s', (template, expected) => {
    expect(text(template, { chart: { name: 'c', version: '1' } })).toBe(expected);
  });

  it('renders named templates with include, template and define, and their data', () => {
    const helpers = ['{{- define "limit" -}}\nnvidia.com/gpu: {{ .gpus }}\n{{- end }}\n{{ define "name" }}{{ .Values.name }}{{ end }}'];
    expect(text('{{ include "limit" (dict "gpus" .Values.gpus) | nindent 2 }}|{{ template "name" . }}', { helpers })).toBe(
      '\n  nvidia.com/gpu: 8|pool',
    );
  });

  it('maps each output line to the template line that wrote it', () => {
    const r = renderChartTemplate({ text: 'a: 1\n{{- range .Values.pools }}\n- {{ .name }}\n{{- end }}\nb: {{ .Values.gpus }}\n', values });
    expect(r.ok && r.value.text.split('\n').map((_, i) => r.value.lineOf(i + 1))).toEqual([1, 3, 3, 5, 6]);
  });
});

describe('what the renderer does not render is named, never half rendered', () => {
  it.each([
    ['{{ .Values.missing.x }}', 'nil pointer evaluating interface {}.x', null],
    ['{{ eq .Values.gpus 8 }}', 'incompatible types for comparison', 'eq'],
    ['{{ .Values.gpus | indent 2 }}', 'wrong type for value; expected string; got float64', 'indent'],
    ['{{ required "set gpus" .Values.missing }}', 'required: set gpus', 'required'],
    ['{{ lookup "v1" "Node" "" "" }}', 'function "lookup" is outside the renderer\'s set', 'lookup'],
    ['{{ .Capabilities.KubeVersion.Minor }}', '.Capabilities is outside what the renderer reads', null],
    ['{{ .Files.Get "x" }}', '.Files is outside what the renderer reads', null],
    ['{{ include "nope" . }}', 'no such template "nope"', null],
    ['{{ if .Values.on }}', 'the template does not parse: unexpected EOF: a block is not closed', null],
    ['{{ 09 }}', 'the template does not parse: bad number syntax: 09', null],
  ])('%s', (template, why, fn) => {
    const r = failure(template);
    expect([r.why, r.fn]).toEqual([why, fn]);
  });

  it('splits text as sprig splitList does', () => {
    expect(text('{{ splitList "." "al2023@latest.x" | last }}')).toBe('x');
    expect(text('{{ range splitList "," "g5,p5" }}[{{ . }}]{{ end }}')).toBe('[g5][p5]');
    expect(text('{{ splitList "," .Values.empty | len }}')).toBe('1');
  });

  it('names the line of the action that failed', () => {
    expect(failure('a: 1\nb: 2\nc: {{ sha256sum "x" }}\n').line).toBe(3);
  });

  it('stops past its budget of steps, output or nesting', () => {
    expect(failure('{{ range until 1000 }}{{ range until 1000 }}x{{ end }}{{ end }}').why).toMatch(/more than \d+ steps/);
    for (const spec of ['%0*d', '%-*s', '%.*f', '%0400000000d'])
      expect(failure(`{{ len (printf "${spec}" 400000000 1) }}`).why).toMatch(/printf with a width or precision of \d+/);
    expect(failure('{{ range until 50000 }}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{{ end }}').why).toMatch(
      /more than \d+ bytes|steps/,
    );
    expect(failure('{{ include "r" . }}', { helpers: ['{{ define "r" }}{{ include "r" . }}{{ end }}'] }).why).toMatch(/nested more than/);
    expect(failure('{{ range until 100 }}x{{ end }}', { limits: { steps: 50 } }).why).toMatch(/more than 50 steps/);
  });

  it('builds the whole list `until` asks for, or is not followed: never a shorter one', () => {
    expect(text('{{ len (until 100000) }}')).toBe('100000');
    for (const n of [100_001, 150_000, 1_000_000_000])
      expect(failure(`{{ div (len (until ${n})) 1000 }}`).why).toMatch(/until \d+, a list of more than 100,000/);
  });
});

describe('any text', () => {
  it('renders or says why, and never throws', () => {
    const seeds = [
      '{{ range $k, $v := .Values.byName }}{{ $k }}: {{ $v.gpus | int | quote }}{{ end }}',
      '{{- include "x" (dict "a" (list 1 2.5 0x1f \'c\' `r`)) | nindent 4 -}}',
      '{{ if and (eq .Values.name "a") (gt (len .Values.pools) 1) }}{{ else if .Values.on }}{{ end }}',
      '{{ printf "%05.2f %q %x %-4d|" 3.14159 "s" 255 7 }}',
    ];
    let seed = 11;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    const chars = '{}()|$.-"`\'/* \n0xe_9aZ:=,';
    for (let i = 0; i < 3000; i++) {
      const base = seeds[i % seeds.length] ?? '';
      const at = rand(base.length + 1);
      const mutated =
        i % 3 === 0
          ? base.slice(0, at)
          : base.slice(0, at) + Array.from({ length: 1 + rand(4) }, () => chars[rand(chars.length)]).join('') + base.slice(at + rand(3));
      const r = renderChartTemplate({ text: mutated, values });
      expect(typeof r.ok).toBe('boolean');
    }
    expect(renderChartTemplate({ text: `{{ ${'('.repeat(20000)}1${')'.repeat(20000)} }}`, values }).ok).toBe(false);
  });
});
