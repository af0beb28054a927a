import { str, get, num } from './context-D-q0CQle.js';

// The follow-up commands of a conversation with proctor (docs/github.md#the-conversation): what follows the
// trigger phrase, read as a verb and its argument. The text is someone's words: it picks one of a fixed
// set of verbs and is never run, split for a shell or interpolated into a command line.
/**
 * The command in a task text (what follows the phrase), or null when the text is a task. A first word
 * that is one of the verbs (any case) makes a command; so does a text of one word only (`/proctor rety`):
 * no task is one word long, and a typo must not start a paid session.
 */
function commandOf(text) {
    const trimmed = text.trim();
    const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
    if (!match)
        return null;
    const word = match[1].toLowerCase().replace(/[.:!,]+$/, '');
    const rest = (match[2] ?? '').trim();
    switch (word) {
        case 'continue':
            return { verb: 'continue', feedback: rest };
        case 'retry':
        case 'stop':
        case 'promote': {
            const verb = word;
            return rest === '' ? { verb } : { verb: 'help', problem: `\`${word}\` takes no argument` };
        }
        case 'restore': {
            const n = /^#?(\d{1,6})$/.exec(rest)?.[1];
            return n === undefined
                ? { verb: 'help', problem: '`restore` needs the number of a checkpoint, e.g. `/proctor restore 2`' }
                : { verb: 'restore', checkpoint: Number(n) };
        }
        case 'help':
            return { verb: 'help', problem: null };
        default:
            return rest === '' ? { verb: 'help', problem: `unknown command \`${word.slice(0, 40)}\`` } : null;
    }
}
/** The short reply to `help` and to anything proctor could not read as a command. */
function helpText(phrase, problem) {
    return [
        problem ? `proctor: ${problem}.` : 'proctor: the commands of a conversation:',
        '',
        '| command | what it does |',
        '| --- | --- |',
        `| \`${phrase} <task>\` | starts a session on the task (at least two words) |`,
        `| \`${phrase} continue <feedback>\` | the next round of the session, from its checkpoint branch, with your feedback |`,
        `| \`${phrase} retry\` | runs the last round's task again from the same base |`,
        `| \`${phrase} stop\` | cancels the running round's workflow run |`,
        `| \`${phrase} restore <n>\` | moves the checkpoint branch back to checkpoint n (the later ones stay under a kept branch) |`,
        `| \`${phrase} promote\` | opens or updates a pull request from the checkpoint branch once its gates passed |`,
        '',
        'docs/github.md#the-conversation',
    ].join('\n');
}

// A task from the conversation: which events start a session, and the task text they carry. The text is
// someone's words from a comment: it is data for the agent (one argv element, an env variable), never a
// command line, and it is cleaned and capped before anything reads it (docs/github.md#a-task-from-a-comment).
/** The events whose text or label can start a session. */
const TRIGGER_EVENTS = [
    'issue_comment',
    'pull_request_review_comment',
    'pull_request_review',
    'issues',
    'pull_request',
];
/** A task longer than this (UTF-8 bytes) is cut at a character boundary, with a note saying so. */
const TASK_MAX_BYTES = 8 * 1024;
/** What the event asks of proctor. `payload` is the event payload as GitHub sent it. */
function triggerOf(eventName, payload, settings) {
    switch (eventName) {
        case 'issue_comment':
        case 'pull_request_review_comment':
            return fromComment(eventName, payload, settings, ['created']);
        case 'pull_request_review':
            return fromComment(eventName, payload, settings, ['submitted']);
        case 'issues':
        case 'pull_request':
            // Only a label is a conversation trigger; a pull request opened or pushed keeps its fixed task.
            if (str(get(payload, 'action')) !== 'labeled')
                return { kind: 'none' };
            return fromLabel(eventName, payload, settings);
        default:
            return { kind: 'none' };
    }
}
function fromComment(eventName, payload, settings, actions) {
    const action = str(get(payload, 'action')) ?? '';
    // An edited comment would start the same task twice; a deleted one asks for nothing.
    if (!actions.includes(action))
        return { kind: 'ignore', reason: `${eventName} "${action}" is not a new comment` };
    const comment = eventName === 'pull_request_review' ? get(payload, 'review') : get(payload, 'comment');
    const body = str(get(comment, 'body')) ?? '';
    const found = findTask(body, settings.phrase);
    if (found === null)
        return {
            kind: 'ignore',
            reason: `the comment does not mention ${settings.phrase.map((p) => `"${p}"`).join(' or ')}`,
        };
    const id = num(get(comment, 'id'));
    const on = eventName === 'issue_comment' ? 'issue' : eventName === 'pull_request_review_comment' ? 'review' : null;
    // A bare `@proctor` asks for the issue or pull request itself: its title and body are the task.
    const text = found !== '' ? found : titleAndBody(get(payload, 'issue') ?? get(payload, 'pull_request'));
    return {
        kind: 'task',
        via: eventName,
        command: found !== '' ? commandOf(found) : null,
        task: {
            text: cleanTask(text),
            ...authorOf(get(comment, 'user')),
            url: str(get(comment, 'html_url')),
            reactTo: on && id !== null ? { on, commentId: id } : null,
            issueNumber: num(get(payload, 'issue', 'number')) ?? num(get(payload, 'pull_request', 'number')),
        },
    };
}
function fromLabel(eventName, payload, settings) {
    const label = str(get(payload, 'label', 'name'));
    if (label === null || label.toLowerCase() !== settings.label.toLowerCase())
        return { kind: 'ignore', reason: `the label "${label ?? ''}" is not "${settings.label}"` };
    const subject = get(payload, eventName === 'issues' ? 'issue' : 'pull_request');
    return {
        kind: 'task',
        via: `the label "${settings.label}"`,
        task: {
            text: cleanTask(titleAndBody(subject)),
            ...authorOf(get(payload, 'sender')),
            url: str(get(subject, 'html_url')),
            reactTo: null,
            issueNumber: num(get(subject, 'number')),
        },
    };
}
/**
 * The task in a comment: everything after the first trigger phrase that stands as a word of its own
 * (start of the text or after whitespace, then whitespace or the end; any letter case), or null when
 * there is none. Quoted lines (`> …`) and fenced code blocks do not count: quoting an earlier request or
 * showing the syntax must not start a session.
 */
function findTask(body, phrases) {
    const text = body.replace(/\r\n?/g, '\n');
    const alternatives = phrases.map(escapeRegExp).join('|');
    if (alternatives === '')
        return null;
    const phrase = new RegExp(`(?:^|[ \\t])(?:${alternatives})(?=\\s|$)`, 'i');
    let offset = 0;
    let fence = null;
    for (const line of text.split('\n')) {
        const start = offset;
        offset += line.length + 1;
        const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
        if (marker) {
            if (fence === null)
                fence = marker[0].repeat(marker.length);
            else if (marker.startsWith(fence))
                fence = null;
            continue;
        }
        if (fence !== null || /^ {0,3}>/.test(line))
            continue;
        const match = phrase.exec(line);
        if (!match)
            continue;
        return text.slice(start + match.index + match[0].length).trim();
    }
    return null;
}
/**
 * Newlines and tabs stay; every other control character (C0, DEL, C1: terminal escapes among them) and
 * the bidirectional overrides that make text read differently from what it says are removed. Over
 * TASK_MAX_BYTES the text is cut at a character boundary and says so.
 */
function cleanTask(text) {
    const clean = text
        .replace(/\r\n?/g, '\n')
        .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
        .trim();
    const bytes = Buffer.from(clean, 'utf8');
    if (bytes.length <= TASK_MAX_BYTES)
        return clean;
    // Back off to the start of a character so the cut never splits one.
    let end = TASK_MAX_BYTES;
    while (end > 0 && (bytes[end] & 0xc0) === 0x80)
        end--;
    return `${bytes.subarray(0, end).toString('utf8')}\n\n[task cut at ${TASK_MAX_BYTES / 1024} KiB by proctor]`;
}
/** A login ending in `[bot]` or an account of type Bot: a bot's comment never starts a session (loops). */
function authorOf(user) {
    const login = str(get(user, 'login')) ?? 'unknown';
    return { author: login, authorIsBot: login.endsWith('[bot]') || str(get(user, 'type')) === 'Bot' };
}
function titleAndBody(subject) {
    const title = str(get(subject, 'title')) ?? '';
    const body = str(get(subject, 'body')) ?? '';
    return body ? `${title}\n\n${body}` : title;
}
function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
function replyOf(eventName, payload, settings) {
    const review = eventName === 'pull_request_review';
    if (!review && eventName !== 'pull_request_review_comment')
        return null;
    if (str(get(payload, 'action')) !== (review ? 'submitted' : 'created'))
        return null;
    const comment = get(payload, review ? 'review' : 'comment');
    // An approval's words are praise, not feedback: approving the promoted pull request starts no paid round.
    if (review && str(get(comment, 'state'))?.toLowerCase() === 'approved')
        return null;
    const body = str(get(comment, 'body')) ?? '';
    // With the phrase it is a task or a command of its own (triggerOf).
    if (findTask(body, settings.phrase) !== null)
        return null;
    const text = cleanTask(body);
    const pull = get(payload, 'pull_request');
    const pr = num(get(pull, 'number'));
    const branch = str(get(pull, 'head', 'ref'));
    const headRepo = str(get(pull, 'head', 'repo', 'full_name'));
    const repo = str(get(payload, 'repository', 'full_name'));
    // A fork's branch of the same name is not the session's branch: only this repository's head counts.
    if (text === '' || pr === null || !branch || !headRepo || !repo)
        return null;
    if (headRepo.toLowerCase() !== repo.toLowerCase())
        return null;
    const id = num(get(comment, 'id'));
    const on = /(?:^|\s)on #(\d{1,9})\b/.exec(str(get(pull, 'body')) ?? '')?.[1];
    return {
        task: {
            text,
            ...authorOf(get(comment, 'user')),
            url: str(get(comment, 'html_url')),
            reactTo: !review && id !== null ? { on: 'review', commentId: id } : null,
            issueNumber: null,
        },
        pr,
        branch,
        conversationOn: on === undefined ? null : Number(on),
    };
}

var trigger = /*#__PURE__*/Object.freeze({
    __proto__: null,
    TASK_MAX_BYTES: TASK_MAX_BYTES,
    TRIGGER_EVENTS: TRIGGER_EVENTS,
    cleanTask: cleanTask,
    findTask: findTask,
    replyOf: replyOf,
    triggerOf: triggerOf
});

export { trigger as a, cleanTask as c, helpText as h, replyOf as r, triggerOf as t };
