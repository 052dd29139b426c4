#!/usr/bin/env node
/** The `rimthan` executable: runs the CLI on the real process and sets the exit code it returns. */
import { processIo, writeStderr } from './io.js';
import { exitOnUncaught, runCli } from './run.js';

const argv = process.argv.slice(2);
exitOnUncaught(argv, writeStderr);
process.exitCode = await runCli(argv, processIo());
