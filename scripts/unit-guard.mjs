// The unit loop's guard, preloaded with `--import` into the unit shards that `run-tests.mjs --unit` starts (which set
// RIMTHAN_UNIT_GUARD=1): it makes starting a process and connecting to PostgreSQL throw an error that names the rule
// and the suffix to use instead. Without that variable it does nothing.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const POSTGRES_PORT = 5432;

function refuse(what) {
  return new Error(
    `unit test rule: a unit test file may not ${what}. ` +
      'Name the file *.e2e.test.ts if it needs processes, a browser or packing, ' +
      '*.pg.test.ts if it needs PostgreSQL (see CONTRIBUTING.md, "Running the tests").',
  );
}

if (process.env.RIMTHAN_UNIT_GUARD === '1') {
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    childProcess[name] = function refused() {
      throw refuse(`start a process (child_process.${name})`);
    };
  }
  syncBuiltinESMExports();

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const first = args[0];
    const options = Array.isArray(first) ? first[0] : first;
    const port = typeof options === 'object' && options !== null ? options.port : options;
    if (Number(port) === POSTGRES_PORT) throw refuse(`connect to PostgreSQL (port ${POSTGRES_PORT})`);
    return connect.apply(this, args);
  };
}
