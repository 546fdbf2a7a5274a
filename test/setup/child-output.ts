import { ChildProcess } from 'node:child_process';

/**
 * Collects a spawned process's stdout and stderr into `output`, and resolves once they hold `line`
 * (a start line, say); fails if the process exits first, with the end of its output. No deadline of
 * its own: loading the compiled service is seconds of CPU that a loaded machine stretches past any
 * fixed wait, so the hook or test that calls it bounds it.
 */
export function untilOutput(child: ChildProcess, output: string[], line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString('utf8'));
      if (output.join('').includes(line)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`the process exited (${code ?? signal}) before it logged "${line}": ${output.join('').slice(-2000)}`)));
  });
}
