import { SingleBar } from 'cli-progress';
import { ImportProgress } from './import-options';

export interface ProgressReporter {
  update(progress: ImportProgress): void;
  stop(): void;
}

const MEGABYTE = 1024 * 1024;
const PLAIN_INTERVAL_MS = 5000;

/**
 * A progress bar (cli-progress, on stderr) when stderr is a terminal; otherwise a plain line at most
 * every five seconds and at each pass change, so CI logs stay readable. Counts and bytes only.
 */
export function progressReporter(out: (line: string) => void, stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  if (stream.isTTY) {
    const bar = new SingleBar(
      { format: 'pass {pass}/{passes} {label} [{bar}] {percentage}% | {written} resources written', stream, hideCursor: true, clearOnComplete: false },
    );
    let started = false;
    return {
      update(progress) {
        const payload = { pass: progress.pass, passes: progress.passes, label: progress.label.padEnd(16), written: progress.written };
        if (!started) bar.start(Math.max(progress.bytesTotal, 1), 0, payload);
        started = true;
        bar.update(progress.bytesDone, payload);
      },
      stop: () => {
        if (started) bar.stop();
      },
    };
  }
  let lastAt = 0;
  let lastPass = 0;
  return {
    update(progress) {
      const now = Date.now();
      if (progress.pass === lastPass && now - lastAt < PLAIN_INTERVAL_MS) return;
      lastAt = now;
      lastPass = progress.pass;
      const percent = progress.bytesTotal ? Math.floor((100 * progress.bytesDone) / progress.bytesTotal) : 100;
      out(
        `progress: pass ${progress.pass}/${progress.passes} (${progress.label}) ${percent}% of ` +
          `${(progress.bytesTotal / MEGABYTE).toFixed(1)} MB read, ${progress.written} resources written`,
      );
    },
    stop: () => undefined,
  };
}
