// A Claude Code hook written with cc-hooks-ts: the SDK parses stdin against its valibot schema
// of every event, the handler records that it was reached, and answers through the SDK's
// context helpers (blockingError exits 2 with stderr; success prints plain context on
// UserPromptSubmit and SessionStart; json prints a JSON answer).
//
// Usage: node cc_hooks_ts_driver.mjs MODE RECORD, MODE one of accept, deny, ask, block, context.
import { writeFileSync } from 'node:fs';
import { defineHook, runHook } from 'cc-hooks-ts';

const [mode, record] = process.argv.slice(2);
writeFileSync(record, 'rejected: the SDK did not call the handler');

const EVENTS = [
  'SessionStart', 'Setup', 'InstructionsLoaded', 'UserPromptSubmit', 'UserPromptExpansion',
  'MessageDisplay', 'PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse',
  'PostToolUseFailure', 'PostToolBatch', 'Notification', 'SubagentStart', 'SubagentStop',
  'TaskCreated', 'TaskCompleted', 'Stop', 'StopFailure', 'TeammateIdle', 'ConfigChange',
  'CwdChanged', 'DirectoryAdded', 'FileChanged', 'WorktreeCreate', 'WorktreeRemove',
  'PreCompact', 'PostCompact', 'PreModelSwitch', 'PostModelSwitch', 'Elicitation',
  'ElicitationResult', 'SessionEnd',
];

await runHook(defineHook({
  trigger: Object.fromEntries(EVENTS.map((e) => [e, true])),
  run: (ctx) => {
    const event = ctx.input.hook_event_name;
    writeFileSync(record, `accepted: ${event}`);
    const json = (specific) => ctx.json({ event, output: { hookSpecificOutput: { hookEventName: event, ...specific } } });
    switch (mode) {
      case 'deny':
        return json({ permissionDecision: 'deny', permissionDecisionReason: 'cc-hooks-ts deny' });
      case 'ask':
        return json({ permissionDecision: 'ask', permissionDecisionReason: 'cc-hooks-ts ask' });
      case 'block':
        return ctx.blockingError('cc-hooks-ts block');
      case 'context':
        if (event === 'UserPromptSubmit' || event === 'SessionStart') {
          return ctx.success({ additionalClaudeContext: 'cc-hooks-ts context' });
        }
        return json({ additionalContext: 'cc-hooks-ts context' });
      default:
        return ctx.success();
    }
  },
}));
