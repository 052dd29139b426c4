#!/usr/bin/env node
/** The `rimthan` executable: runs the CLI on the real process and sets the exit code it returns. */
import { processIo } from './io.js';
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2), processIo());
