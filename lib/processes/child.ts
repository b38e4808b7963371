/**
 * Runs one part of the package as a child process in the caller's working directory and hands its exit
 * code back unchanged: the CLI adds no verdict of its own. Ctrl-C and SIGTERM reach the child, which
 * then finishes its reports before it exits.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** tsx's loader, for `node --import`: it runs the package's TypeScript without a build step. */
export const TSX = import.meta.resolve('tsx');

/** A TypeScript entry point of this package (a path from its root) with the caller's arguments. */
export function runScript(script: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return runNode(['--import', TSX, fileURLToPath(new URL(`../../${script}`, import.meta.url)), ...args], env);
}

export function runNode(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const child = spawn(process.execPath, args, { cwd: process.cwd(), env, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`petstore-conformance: cannot start node: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal === 'SIGINT' ? 130 : 1));
    });
  });
}
