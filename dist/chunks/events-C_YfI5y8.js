// The lifecycle events a hook can be attached to. Apart from schema.ts so that code which only needs the
// names (the session's lifecycle hooks) does not load zod before the agent starts.
const lifecycleEvents = [
    'session_start',
    'checkpoint',
    'violation',
    'approval_request',
    'stop',
    'session_end',
    'subagent_stop',
    'subagent_batch_complete',
];

export { lifecycleEvents as l };
