import type { TelemetrySource } from '../telemetry/index.js';

/** Where progress goes: a terminal's stderr, rewritten in place; nowhere when not a terminal. */
export interface ProgressSink {
  write(text: string): void;
}

/** stderr when it is a terminal (a pipe or a CI log gets no progress lines), else null. */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): ProgressSink | null {
  return stream.isTTY ? { write: (text) => void stream.write(text) } : null;
}

/**
 * Counts answers as a live source gives them, on one line rewritten in place, so a long
 * telemetry gathering shows it is moving. Plain text: no colour codes, whatever NO_COLOR says.
 */
export function withProgress(source: TelemetrySource, sink: ProgressSink | null): { source: TelemetrySource; done(): void } {
  if (sink === null) return { source, done: () => {} };
  const started = Date.now();
  let answered = 0;
  let missing = 0;
  const line = () =>
    `\rtelemetry: ${answered + missing} queries (${missing} without data), ${((Date.now() - started) / 1000).toFixed(1)} s`;
  return {
    source: {
      description: source.description,
      async query(q, at, window) {
        const result = await source.query(q, at, window);
        if (result.status === 'ok') answered++;
        else missing++;
        sink.write(line());
        return result;
      },
    },
    done: () => {
      if (answered + missing > 0) sink.write(`${line()}\n`);
    },
  };
}
