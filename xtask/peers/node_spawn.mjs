// Node's child_process.spawn with a shell, as Claude Code runs a command hook: each matching
// hook at once, the payload on stdin, stdout collected until the process closes.
import { spawn } from 'node:child_process';
import { allows, fail, measure, workload } from './common.mjs';

const work = workload();
const stdin = JSON.stringify(work.payload) + '\n';

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, cwd: work.payload.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', () => {});
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    child.on('close', (code) => resolve(code === 0 && allows(stdout)));
    child.on('error', (e) => fail(`spawn failed: ${e}`));
  });
}

await measure(work, async () => {
  const answers = await Promise.all(work.commands.map(run));
  if (!answers.every(Boolean)) fail('a hook did not allow');
});
