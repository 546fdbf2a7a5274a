import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, join } from 'node:path';

/**
 * Preloaded (`--require`) into Vigil's process when the bench profiles it (BENCH_VIGIL_CPU_PROFILE,
 * a directory): V8's sampling profiler from start-up until the bench stops the server with SIGTERM,
 * written there as `<script>-<pid>.cpuprofile` (`main-…` for Vigil, `floor-server-…` for the floor;
 * open it in Chrome DevTools). `--cpu-prof` itself is
 * not allowed in NODE_OPTIONS, hence the inspector session.
 */
const directory = process.env.BENCH_VIGIL_CPU_PROFILE;
if (directory) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable', () => session.post('Profiler.start'));
  process.once('SIGTERM', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(directory, `${basename(process.argv[1] ?? 'node', '.js')}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      process.exit(0);
    });
  });
}
