const { realpathSync, lstatSync, readlinkSync } = process.getBuiltinModule("node:fs");
const { basename, posix, join } = process.getBuiltinModule("node:path");
import { c as compileAreas, P as PolicyConfigError, p as picomatch } from './areas-BPhpJk9z.js';
import { T as TEST_LANGUAGES, O as formatSize } from './checkpoints-create-CJcO-Brq.js';

/** The names of the constraints: used as keys of `policy.severities` and in every report. */
const CONSTRAINTS = [
    'forbidden_area',
    'protected_area',
    'outside_allowed',
    'symlink_escape',
    'new_executable',
    'file_size',
    'diff_size',
    'unsafe_path',
    'git_tamper',
    'tests_weakened',
    'secret_content',
];
/**
 * Constraints whose default is not policy.violation_severity: a path that can forge log lines and a
 * change to the repository's own machinery (hooks, config) and a secret written into a file are never mere
 * warnings unless the user says so.
 */
const DEFAULT_SEVERITIES = {
    unsafe_path: 'error',
    git_tamper: 'critical',
    // Tests weakened to get green are what a reviewer must see before merging: the stop is blocked.
    tests_weakened: 'error',
    secret_content: 'critical',
};
/** `file` of a violation that concerns the whole diff rather than one file (diff_size). */
const WHOLE_DIFF = '';
const MODE_EXECUTABLE = '100755';
const MODE_SYMLINK = '120000';

const RULES = {
    javascript: {
        lineComment: '//',
        blockComment: true,
        quotes: `'"\``,
        // it(, test(, specify(, it.each(…)(…) and test.concurrent(…); not regex.test( (a method).
        tests: /(?<![\w.$])(?:it|test|specify)\s*(?:\.\s*(?:only|concurrent|sequential|failing|fails|each|for)\s*)*[(`]/g,
        assertions: /(?<![\w.$])(?:expect|assert)(?:\s*\.\s*\w+)*\s*\(|\.should\b/g,
        skips: /(?<![\w.$])(?:it|test|specify|describe|suite|context)\s*(?:\.\s*\w+\s*)*?\.\s*(?:skip|todo|only|skipIf|runIf)\b|(?<![\w.$])(?:xit|xtest|xspecify|xdescribe|xcontext|xsuite|fit|fdescribe)\s*\(|(?<![\w$])(?:this|ctx|context|t)\s*\.\s*skip\s*\(|(?<![\w$])(?:skip|todo|only)\s*:\s*(?:true|['"`])/g,
        rebinds: jsRebinds,
    },
    python: {
        lineComment: '#',
        blockComment: false,
        quotes: `'"`,
        tripleQuotes: true,
        tests: /^[ \t]*(?:async[ \t]+)?def[ \t]+test\w*[ \t]*\(/gm,
        assertions: /^[ \t]*assert\b|\bself\.assert\w*\s*\(|\bself\.fail\s*\(|\bpytest\.(?:raises|warns|fail)\s*\(/gm,
        skips: /\bpytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail|importorskip)\s*\(|@(?:unittest\.)?(?:skip|skipIf|skipUnless|expectedFailure)\b|\bself\.skipTest\s*\(|\braise\s+(?:unittest\.)?SkipTest\b/g,
        rebinds: pythonRebinds,
    },
    go: {
        lineComment: '//',
        blockComment: true,
        quotes: `"\``,
        tests: /^func[ \t]+(?:Test|Fuzz|Example)\w*[ \t]*\(|\bt\.Run\s*\(/gm,
        assertions: /\b[tbf]\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\s*\(|\b(?:assert|require)\.\w+\s*\(/g,
        skips: /\b[tbf]\.(?:Skip|Skipf|SkipNow)\s*\(/g,
        // A build constraint leaves the whole file out of `go test` wherever it does not hold.
        commentSkips: /^\/\/(?:go:build|[ \t]*\+build)\b.*$/gm,
    },
    rust: {
        lineComment: '//',
        blockComment: true,
        // `'` is a lifetime as often as a char: it opens nothing.
        quotes: '"',
        // (Bounded repetitions throughout: an attribute never runs for pages, and an unbounded one would
        // backtrack over the rest of a line at each `#[`.)
        tests: /#\[\s*(?:[\w:]+::)?test\b[^\]\n]{0,200}\]|#\[\s*rstest\b/g,
        assertions: /\b(?:assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne|assert_matches|prop_assert\w*)!\s*[([{]|#\[\s*should_panic\b/g,
        skips: /#\[\s*ignore\b/g,
        marker: /#\[\s*(?:[\w:]+::)?test\b|#\[\s*cfg\s*\(\s*test\s*\)\s*\]|#\[\s*rstest\b/,
    },
    java: {
        lineComment: '//',
        blockComment: true,
        quotes: `"'`,
        tests: /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property)\b/g,
        assertions: /(?<![\w$])(?:assert[A-Z]\w*|assertThat|fail|verify)\s*\(|^[ \t]*assert[ \t(]/gm,
        skips: /@(?:Disabled\w*|Ignore|EnabledIf\w*|EnabledOn\w*)\b|(?<![\w$])(?:Assumptions\s*\.\s*)?assume(?:True|False|That)\s*\(/g,
    },
};
function countTests(language, source) {
    const rules = RULES[language];
    const code = blankComments(source, rules);
    const lines = source.split('\n');
    const skipLines = new Map();
    const at = lineCounter(source);
    const found = [...code.matchAll(rules.skips)].map((m) => m.index);
    if (rules.commentSkips)
        found.push(...[...source.matchAll(rules.commentSkips)].map((m) => m.index));
    for (const index of found.sort((a, b) => a - b)) {
        const line = at(index);
        if (!skipLines.has(line))
            skipLines.set(line, (lines[line - 1] ?? '').trim());
    }
    // One per line: `const it = …` is both a declaration and an assignment.
    const rebinds = new Map();
    const atRebind = lineCounter(source);
    for (const r of (rules.rebinds?.(source, code) ?? []).sort((a, b) => a.index - b.index)) {
        const line = atRebind(r.index);
        if (!rebinds.has(line))
            rebinds.set(line, r.text);
    }
    return {
        tests: countMatches(code, rules.tests),
        assertions: countMatches(code, rules.assertions),
        skips: [...skipLines].map(([line, text]) => ({ line, text })),
        marked: rules.marker ? rules.marker.test(code) : true,
        rebinds: [...rebinds].map(([line, text]) => ({ line, text })),
    };
}
// --- Rebinding the framework's names -------------------------------------------------------------------
// Lexical like the rest: what binds a name the framework provides, at any depth (a local `const test = …`
// inside a helper is flagged too; only lines the change added count, so a file that always had one is not).
/** The JS/TS names a test file calls the framework by. */
const JS_NAMES = 'it|test|specify|describe|suite|expect|assert|beforeEach|afterEach|beforeAll|afterAll|xit|xtest|xdescribe|fit|fdescribe|chai';
const JS_NAME = new RegExp(`^(?:${JS_NAMES})$`);
/** Modules a test file imports the framework's names from: an import of them from anywhere else rebinds. */
const JS_FRAMEWORKS = /^(?:vitest(?:\/.*)?|@vitest\/.+|@jest\/globals|jest|expect|mocha|chai|ava|tap|uvu(?:\/assert)?|jasmine|power-assert|(?:node:)?test|bun:test|(?:node:)?assert(?:\/strict)?|@playwright\/test|@fast-check\/(?:vitest|jest|ava)|@effect\/vitest|@std\/(?:testing|assert)(?:\/.*)?|jsr:@std\/(?:testing|assert)(?:\/.*)?)$/;
/** `require('vitest')`, `await import('chai')`, possibly followed by a member (`require('chai').expect`). */
const FRAMEWORK_LOAD = /^\s*(?:await\s+)?(?:require|import)\s*\(\s*(['"`])([^'"`]+)\1\s*\)/;
const JS_REBIND_PATTERNS = [
    // const it = …, let test, var expect, class describe, function it(…), function* test(…)
    new RegExp(`(?<![\\w$.])(?:(?:const|let|var|class)\\s+|function\\s*\\*?\\s*)(?:${JS_NAMES})(?![\\w$])(?!\\s+(?:of|in)\\b)`, 'g'),
    // const { it, expect: e } = …, let [test] = … (a name bound by a pattern, not a key renamed away)
    /(?<![\w$.])(?:const|let|var)\s*[{[][^=;]{0,400}?[}\]]\s*=/g,
    // it = …, expect ||= …, it.each = … (not ==, =>)
    new RegExp(`(?<![\\w$.])(?:${JS_NAMES})(?:\\s*\\.\\s*[\\w$]+){0,4}\\s*(?:[-+*/%&|^?]{0,3})=(?![=>])`, 'g'),
    // globalThis.it = …, global['test'] = …, window.expect = …
    new RegExp(`(?<![\\w$.])(?:globalThis|global|window|self)\\s*(?:\\.\\s*(?:${JS_NAMES})(?![\\w$])|\\[\\s*(['"\`])(?:${JS_NAMES})\\1\\s*\\])\\s*=(?![=>])`, 'g'),
    // Object.defineProperty(globalThis, 'it', …), Object.assign(global, { test: … }), vi.stubGlobal('it', …)
    new RegExp(`(?<![\\w$.])Object\\s*\\.\\s*(?:defineProperty\\s*\\(\\s*(?:globalThis|global|window|self)\\s*,\\s*(['"\`])(?:${JS_NAMES})\\1|(?:defineProperties|assign)\\s*\\(\\s*(?:globalThis|global|window|self)\\s*,\\s*\\{[^}]{0,400}?(?<![\\w$.])(?:${JS_NAMES})\\s*[:,}(])`, 'g'),
    new RegExp(`(?<![\\w$.])vi\\s*\\.\\s*stubGlobal\\s*\\(\\s*(['"\`])(?:${JS_NAMES})\\1`, 'g'),
    // vi.mock('vitest', …), jest.mock('@jest/globals'), jest.unstable_mockModule('node:test', …)
    /(?<![\w$.])(?:vi|jest)\s*\.\s*(?:mock|doMock|unstable_mockModule|setMock)\s*\(\s*(['"`])([^'"`\n]+)\1/g,
    // import { it } from './fake', import test from 'x', import * as expect from 'y'
    /(?<![\w$.])import\s+(?!\()([^'";]{1,400}?)\s+from\s*(['"])([^'"\n]+)\2/g,
];
function jsRebinds(source, code) {
    const found = [];
    const inCode = (index) => code.charCodeAt(index) === source.charCodeAt(index);
    for (const [which, pattern] of JS_REBIND_PATTERNS.entries()) {
        for (const match of source.matchAll(pattern)) {
            if (!inCode(match.index))
                continue;
            if (!jsRebindCounts(which, match, source))
                continue;
            found.push({ index: match.index, text: statementText(source, match.index, match[0]) });
        }
    }
    return found;
}
/** Whether a match of JS_REBIND_PATTERNS[which] rebinds a framework name (the framework's own load does not). */
function jsRebindCounts(which, match, source) {
    const rest = () => source.slice(match.index + match[0].length, match.index + match[0].length + 200);
    const loadsFramework = (after) => {
        const load = FRAMEWORK_LOAD.exec(after);
        return load !== null && JS_FRAMEWORKS.test(load[2]);
    };
    switch (which) {
        case 0:
            // `const expect = require('chai').expect` is the framework's; `const it = …` anything else is not.
            return !(/^(?:const|let|var)\b/.test(match[0]) && loadsFramework(rest().replace(/^\s*(?::[^=;\n]*)?=/, '')));
        case 2:
            return !loadsFramework(rest());
        case 1: {
            const names = patternBindings(match[0].replace(/^(?:const|let|var)\s*/, '').replace(/\s*=$/, ''));
            return names.some((name) => JS_NAME.test(name)) && !loadsFramework(rest());
        }
        case 6:
            return JS_FRAMEWORKS.test(match[2]);
        case 7: {
            if (JS_FRAMEWORKS.test(match[3]))
                return false;
            return importBindings(match[1]).some((name) => JS_NAME.test(name));
        }
        default:
            return true;
    }
}
/** The names a destructuring pattern binds: `{ a, b: c, ...d }` binds a, c, d; `[e, , f = 1]` e and f. */
function patternBindings(pattern) {
    const names = [];
    for (const m of pattern.matchAll(/(?:^|[{[,:]|\.\.\.)\s*([A-Za-z_$][\w$]*)\s*(?=[,}\]=]|$)/g))
        names.push(m[1]);
    return names;
}
/** The local names an import clause binds: `a, { b as c, type d, e }` binds a, c, e; `* as f` binds f. */
function importBindings(clause) {
    // A type-only import binds no value.
    if (/^type\s/.test(clause))
        return [];
    const names = [];
    const text = clause;
    const braces = /\{([^}]*)\}/.exec(text);
    for (const part of braces ? braces[1].split(',') : []) {
        const spec = part.trim();
        if (!spec || /^type\s/.test(spec))
            continue;
        names.push(spec
            .split(/\s+as\s+/)
            .pop()
            .trim());
    }
    const outside = braces ? text.replace(braces[0], '') : text;
    for (const part of outside.split(',')) {
        const spec = part.trim();
        if (spec)
            names.push(spec.replace(/^\*\s*as\s+/, ''));
    }
    return names;
}
/** What a rebinding says, as its line shows it: the line it starts on (a whole import statement). */
function statementText(source, index, matched) {
    const start = source.lastIndexOf('\n', index - 1) + 1;
    const end = source.indexOf('\n', index);
    const line = source.slice(start, end === -1 ? source.length : end);
    const text = matched.startsWith('import') && matched.includes('\n') ? matched : line;
    return text.replace(/\s+/g, ' ').trim();
}
/**
 * Python: `__test__ = False` (pytest collects nothing of the module or class), a test function's name
 * bound again or deleted (`test_x = lambda: None`, `del test_x`: pytest runs what the name holds last), and
 * an assertion method replaced (`self.assertEqual = …`, `TestCase.assertTrue = …`).
 */
function pythonRebinds(source, code) {
    const found = [];
    const inCode = (index) => code.charCodeAt(index) === source.charCodeAt(index);
    const tests = new Set([...code.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+(test\w*)/gm)].map((m) => m[1]));
    const patterns = [
        [/^[ \t]*__test__[ \t]*(?::[^=\n]*)?=(?!=)/gm, () => true],
        [/^[ \t]*(test\w*)[ \t]*(?::[^=\n]*)?=(?!=)/gm, (m) => tests.has(m[1])],
        [/^[ \t]*del[ \t]+(test\w*)\b/gm, (m) => tests.has(m[1])],
        [/\b(?:self|cls|(?:unittest\.)?TestCase)\.(?:assert\w*|fail\w*)[ \t]*=(?!=)/g, () => true],
    ];
    for (const [pattern, counts] of patterns) {
        for (const match of source.matchAll(pattern)) {
            const at = match.index + (match[0].length - match[0].trimStart().length);
            if (!inCode(at) || !counts(match))
                continue;
            found.push({ index: at, text: statementText(source, at, match[0]) });
        }
    }
    return found;
}
function countMatches(text, pattern) {
    let n = 0;
    for (const _ of text.matchAll(pattern))
        n++;
    return n;
}
/** The 1-based line of an index, for indexes asked in increasing order (one pass over the text). */
function lineCounter(text) {
    let line = 1;
    let next = text.indexOf('\n');
    return (index) => {
        while (next !== -1 && next < index) {
            line++;
            next = text.indexOf('\n', next + 1);
        }
        return line;
    };
}
/**
 * The source with its comments and the insides of its strings replaced by spaces (newlines kept, so line
 * numbers stay; the quotes kept). Strings are read with their escapes, so `"http://x"` is not a comment, and
 * tests wrapped in a string (`` `it(…)` ``, a docstring) are not counted as code.
 */
function blankComments(source, rules) {
    const parts = [];
    const line = rules.lineComment;
    let kept = 0;
    let i = 0;
    const blank = (from, to) => {
        parts.push(source.slice(kept, from), source.slice(from, to).replace(/[^\n]/g, ' '));
        kept = to;
    };
    while (i < source.length) {
        const c = source[i];
        const triple = rules.tripleQuotes && rules.quotes.includes(c) ? c.repeat(3) : null;
        if (triple && source.startsWith(triple, i)) {
            const end = source.indexOf(triple, i + 3);
            const to = end === -1 ? source.length : end;
            blank(i + 3, to);
            i = to + 3;
        }
        else if (rules.quotes.includes(c)) {
            let j = i + 1;
            while (j < source.length && source[j] !== c) {
                if (source[j] === '\\')
                    j++;
                // An unclosed quote ends at the line's end (a stray apostrophe must not hide the rest of the file),
                // except in a template literal or Go raw string, which span lines.
                else if (source[j] === '\n' && c !== '`')
                    break;
                j++;
            }
            const to = Math.min(j, source.length);
            if (to > i + 1)
                blank(i + 1, to);
            i = j + 1;
        }
        else if (source.startsWith(line, i)) {
            const end = source.indexOf('\n', i);
            const to = end === -1 ? source.length : end;
            blank(i, to);
            i = to;
        }
        else if (rules.blockComment && source.startsWith('/*', i)) {
            const end = source.indexOf('*/', i + 2);
            const to = end === -1 ? source.length : end + 2;
            blank(i, to);
            i = to;
        }
        else
            i++;
    }
    parts.push(source.slice(kept));
    return parts.join('');
}

// Test-runner and coverage configs (policy.tests.configs): what part of a file configures the tests, and
// which coverage thresholds a change lowered. Lexical, like the test counts: a file that also configures
// other things (package.json, pyproject.toml, pom.xml, …) is judged only on its test settings, so adding a
// dependency is no violation.
/** Keys of a package.json that configure test runners or coverage. */
const PACKAGE_KEYS = ['jest', 'c8', 'nyc', 'ava', 'mocha', 'vitest', 'jasmine'];
/** Sections of a TOML/INI file that configure pytest, coverage.py or a tox test environment. */
const SECTION = /^(?:tool\.pytest|tool\.coverage|tool:pytest|pytest|coverage(?::|\b)|testenv)/i;
/** Lines of a Maven or Gradle build that configure tests or coverage. */
const BUILD_LINE = /test|jacoco|surefire|failsafe|coverage|minimum|ignoreFailures/i;
/** Lines of a vite config (vitest reads its `test` block) that configure tests or coverage. */
const VITE_LINE = /test|coverage|threshold|exclude|include|lines|branches|functions|statements/i;
/** The text of `path` that configures tests ('' when none). */
function testSettings(path, text) {
    const name = basename(path);
    if (name === 'package.json')
        return packageSettings(text);
    if (name === 'pyproject.toml' || name === 'setup.cfg' || name === 'tox.ini')
        return sectionSettings(text);
    if (name === 'pom.xml' || name.startsWith('build.gradle'))
        return linesMatching(text, BUILD_LINE);
    if (name.startsWith('vite.config.'))
        return linesMatching(text, VITE_LINE);
    return text;
}
function linesMatching(text, pattern) {
    return text
        .split('\n')
        .filter((l) => pattern.test(l))
        .join('\n');
}
function packageSettings(text) {
    let json;
    try {
        json = JSON.parse(text);
    }
    catch {
        return text;
    }
    if (!json || typeof json !== 'object')
        return text;
    const pkg = json;
    const picked = {};
    for (const key of PACKAGE_KEYS)
        if (key in pkg)
            picked[key] = pkg[key];
    const scripts = pkg.scripts;
    if (scripts && typeof scripts === 'object') {
        for (const [name, command] of Object.entries(scripts))
            if (/test|cov/i.test(name))
                picked[`scripts.${name}`] = command;
    }
    return Object.keys(picked).length ? JSON.stringify(picked, null, 1) : '';
}
function sectionSettings(text) {
    const kept = [];
    let keep = false;
    for (const line of text.split('\n')) {
        const header = /^\s*\[+\s*([^\]]+?)\s*\]+\s*$/.exec(line);
        if (header)
            keep = SECTION.test(header[1]);
        if (keep)
            kept.push(line);
    }
    return kept.join('\n');
}
/** A key names a coverage threshold. */
const THRESHOLD_KEY = /fail[_-]?under|threshold|branches|functions|lines|statements|minimum|coveredratio|target/i;
/** Every threshold in `text`: key (lowercase, without quotes or dashes) → its values. */
function thresholds(text) {
    const found = new Map();
    const add = (key, value) => {
        const k = key.replace(/^-+/, '').toLowerCase();
        if (!THRESHOLD_KEY.test(k))
            return;
        const list = found.get(k) ?? [];
        list.push(Number(value));
        found.set(k, list);
    };
    // `lines: 90`, `"lines": 90`, `fail_under = 80`, `--cov-fail-under=80`, `target: 80%`
    for (const m of text.matchAll(/(?<![\w.-])([A-Za-z_-][\w.-]*)["']?\s*[:=]\s*["']?(\d+(?:\.\d+)?)/g))
        add(m[1], m[2]);
    // `--cov-fail-under 80`, `--lines 90`
    for (const m of text.matchAll(/(?<![\w-])(--[\w-]+)[ \t]+["']?(\d+(?:\.\d+)?)\b/g))
        add(m[1], m[2]);
    // <minimum>0.80</minimum>
    for (const m of text.matchAll(/<(\w+)>\s*(\d+(?:\.\d+)?)\s*<\//g))
        add(m[1], m[2]);
    return found;
}
/** "lines 90 → 80" for each threshold the change lowered or removed. */
function loweredThresholds(before, after) {
    const was = thresholds(before);
    const now = thresholds(after);
    const lowered = [];
    for (const [key, values] of was) {
        const b = [...values].sort((x, y) => x - y);
        const a = [...(now.get(key) ?? [])].sort((x, y) => x - y);
        for (let i = 0; i < b.length; i++) {
            if (i >= a.length)
                lowered.push(`${key} ${b[i]} → removed`);
            else if (a[i] < b[i])
                lowered.push(`${key} ${b[i]} → ${a[i]}`);
            else
                continue;
            break;
        }
    }
    return lowered;
}
/** Lines of `a` not in `b` (as a multiset, trimmed, blank lines left out). */
function linesOnlyIn(a, b) {
    const count = new Map();
    for (const line of b.split('\n')) {
        const t = line.trim();
        if (t)
            count.set(t, (count.get(t) ?? 0) + 1);
    }
    const only = [];
    for (const line of a.split('\n')) {
        const t = line.trim();
        if (!t)
            continue;
        const n = count.get(t) ?? 0;
        if (n > 0)
            count.set(t, n - 1);
        else
            only.push(t);
    }
    return only;
}

/** Blobs larger than this are no test file a person wrote (generated fixtures, snapshots): not read. */
const MAX_BLOB = 2 * 1024 * 1024;
/** How much of a quoted line a message shows. */
const MAX_QUOTE = 120;
const matchers = new WeakMap();
/**
 * `policy.tests` compiled (throws PolicyConfigError naming the glob that is unusable). Configs first:
 * conftest.py is a Python file and, first of all, the runner's config.
 */
function testFileMatchers(policy) {
    let compiled = matchers.get(policy);
    if (!compiled) {
        compiled = ['configs', ...TEST_LANGUAGES].map((kind) => ({
            kind,
            areas: compileAreas(`tests.${kind}`, policy.tests[kind]),
        }));
        matchers.set(policy, compiled);
    }
    return compiled;
}
function kindOf(path, policy) {
    for (const { kind, areas } of testFileMatchers(policy))
        if (!areas.empty && areas.match(path))
            return kind;
    return null;
}
/** Counts of blobs already read, by language and blob: a test file the session changed is judged at every checkpoint. */
const counted = new Map();
const MAX_COUNTED = 5000;
/** Every tests_weakened violation of the diff, one per file, in the order of the files. */
async function testsWeakened(git, files, checkpoint, policy) {
    const judged = [];
    for (const file of files) {
        const readable = (mode) => mode !== null && mode !== MODE_SYMLINK && mode !== '160000';
        const before = file.oldBlob && readable(file.oldMode) ? kindOf(file.oldPath ?? file.path, policy) : null;
        // A test file turned into a symlink, a binary or a 2 MiB file can no longer be counted: it is judged
        // like one whose tests are gone.
        const after = file.newBlob && readable(file.newMode) && (file.size ?? 0) <= MAX_BLOB
            ? kindOf(file.path, policy)
            : null;
        if (before !== null || (after === 'configs' && file.status !== 'D'))
            judged.push({ file, before, after });
    }
    if (judged.length === 0)
        return [];
    const wanted = new Set();
    for (const { file, before, after } of judged) {
        if (before !== null && !counted.has(`${before}\0${file.oldBlob}`))
            wanted.add(file.oldBlob);
        if (after !== null && !counted.has(`${after}\0${file.newBlob}`))
            wanted.add(file.newBlob);
    }
    const ids = [...wanted];
    const read = await git.readBlobs(ids);
    const blobs = new Map(ids.map((id, i) => [id, read[i]]));
    const text = (sha) => {
        const blob = sha === undefined ? undefined : blobs.get(sha);
        if (!blob || blob.length > MAX_BLOB || blob.subarray(0, 8000).includes(0))
            return null;
        return blob.toString('utf8');
    };
    const countsOf = (language, sha) => {
        if (sha === undefined)
            return null;
        const key = `${language}\0${sha}`;
        let counts = counted.get(key);
        if (!counts) {
            const source = text(sha);
            if (source === null)
                return null;
            counts = countTests(language, source);
            if (counted.size >= MAX_COUNTED)
                counted.delete(counted.keys().next().value);
            counted.set(key, counts);
        }
        return counts;
    };
    const severity = compilePolicy(policy).severityOf('tests_weakened');
    const violations = [];
    for (const { file, before, after } of judged) {
        const found = before === 'configs' || after === 'configs'
            ? configFinding(file, before === 'configs' ? text(file.oldBlob) : null, after === 'configs' ? text(file.newBlob) : null)
            : testFinding(file, countsOf(before, file.oldBlob), before === after ? countsOf(after, file.newBlob) : null);
        if (found)
            violations.push({ checkpoint, file: file.path, constraint: 'tests_weakened', severity, ...found });
    }
    return violations;
}
function testFinding(file, was, now) {
    if (!was?.marked && !now?.marked)
        return null;
    const shown = displayPath(file.path);
    if (!was || (was.tests === 0 && was.assertions === 0 && was.skips.length === 0 && !now))
        return null;
    if (!now) {
        const gone = file.status === 'D'
            ? `${shown} was deleted`
            : file.status === 'R'
                ? `${displayPath(file.oldPath ?? file.path)} was renamed to ${shown}, which policy.tests does not count as a test file of its language`
                : `${shown} can no longer be read as a test file (it became a symlink, a binary or a file over 2 MiB)`;
        return {
            message: `${gone}: a test file with ${plural(was.tests, 'test case')} and ${plural(was.assertions, 'assertion')} is gone`,
            suggestion: `Restore ${displayPath(file.oldPath ?? file.path)} (git checkout HEAD -- ${shellQuote(file.oldPath ?? file.path)}, or from the session's baseline) and make the code pass its tests instead of removing them.`,
        };
    }
    const parts = [];
    if (now.tests < was.tests)
        parts.push(`test cases ${was.tests} → ${now.tests}`);
    if (now.assertions < was.assertions)
        parts.push(`assertions ${was.assertions} → ${now.assertions}`);
    const added = addedSkips(was.skips, now.skips);
    if (added.length) {
        const lines = added
            .slice(0, 3)
            .map((s) => `line ${s.line}: ${quoteLine(s.text)}`)
            .join(', ');
        parts.push(`${added.length === 1 ? 'a skip was' : `${added.length} skips were`} added (${lines}${added.length > 3 ? ', …' : ''})`);
    }
    const rebound = addedSkips(was.rebinds, now.rebinds);
    if (rebound.length) {
        const lines = rebound
            .slice(0, 3)
            .map((s) => `line ${s.line}: ${quoteLine(s.text)}`)
            .join(', ');
        parts.push(`the test framework's names are rebound, so the tests and assertions in place no longer run as written (${lines}${rebound.length > 3 ? ', …' : ''})`);
    }
    if (parts.length === 0)
        return null;
    const removed = now.tests < was.tests || now.assertions < was.assertions;
    const first = [added[0], rebound[0]].filter((s) => s !== undefined).sort((a, b) => a.line - b.line)[0];
    return {
        message: `${shown} weakens its tests: ${parts.join('; ')}`,
        suggestion: `${[
            removed ? 'put back the removed tests and assertions' : '',
            added.length ? 'remove the skip' : '',
            rebound.length
                ? "remove what rebinds the framework's names (use them as the framework exports them)"
                : '',
        ]
            .filter(Boolean)
            .join(' and ')
            .replace(/^./, (c) => c.toUpperCase())} in ${shown} (git diff shows what changed) and fix the code under test instead; the tests are the user's measure of the work.`,
        ...(first ? { line: first.line } : {}),
    };
}
function configFinding(file, before, after) {
    const oldPath = file.oldPath ?? file.path;
    const was = before === null ? '' : testSettings(oldPath, before);
    const now = after === null ? '' : testSettings(file.path, after);
    if (was.replace(/\s+/g, ' ').trim() === now.replace(/\s+/g, ' ').trim())
        return null;
    const shown = displayPath(file.path);
    const how = file.status === 'D' || after === null
        ? 'was deleted'
        : before === null
            ? 'was added'
            : 'had its test settings changed';
    const lowered = loweredThresholds(was, now);
    const removedLines = linesOnlyIn(was, now);
    const addedLines = linesOnlyIn(now, was);
    const sample = [
        ...removedLines.slice(0, 2).map((l) => `- ${quoteLine(l)}`),
        ...addedLines.slice(0, 2).map((l) => `+ ${quoteLine(l)}`),
    ];
    const firstAdded = addedLines[0];
    const at = firstAdded && after !== null ? after.split('\n').findIndex((l) => l.trim() === firstAdded) : -1;
    return {
        message: `${shown} (a test-runner or coverage config) ${how}${lowered.length ? `; coverage threshold lowered: ${lowered.join(', ')}` : ''}${sample.length ? ` (${sample.join(', ')})` : ''}`,
        suggestion: `Undo the change to ${shown}'s test settings (git checkout HEAD -- ${shellQuote(oldPath)} restores the file); how the tests run and how much they must cover is the user's to decide, and the code must meet it as it is.`,
        ...(at >= 0 ? { line: at + 1 } : {}),
    };
}
/**
 * Skip (or rebinding) lines of `now` that `was` did not hold, as a multiset of their text: a moved one is no
 * new one.
 */
function addedSkips(was, now) {
    const seen = new Map();
    for (const s of was)
        seen.set(s.text, (seen.get(s.text) ?? 0) + 1);
    return now.filter((s) => {
        const n = seen.get(s.text) ?? 0;
        if (n > 0)
            seen.set(s.text, n - 1);
        return n === 0;
    });
}
function plural(n, word) {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}
/** A line of the file as a message shows it: one line, no control characters, capped. */
function quoteLine(text) {
    const clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
    return `\`${clean.length > MAX_QUOTE ? `${clean.slice(0, MAX_QUOTE)}…` : clean}\``;
}

// A policy compiled once (globs → matchers) and reused for every diff of a session.
const cache = new WeakMap();
/** Throws PolicyConfigError naming the offending key when a pattern or severity key is unusable. */
function compilePolicy(config) {
    const cached = cache.get(config);
    if (cached)
        return cached;
    for (const key of Object.keys(config.severities)) {
        if (!CONSTRAINTS.includes(key)) {
            const hint = closest(key, CONSTRAINTS);
            throw new PolicyConfigError(`severities.${key}`, `unknown constraint${hint ? ` (did you mean "${hint}"?)` : ''}; known constraints: ${CONSTRAINTS.join(', ')}`);
        }
    }
    const compiled = {
        config,
        allowed: compileAreas('allowed_areas', config.allowed_areas),
        forbidden: compileAreas('forbidden_areas', config.forbidden_areas),
        protected: compileAreas('protected_areas', config.protected_areas),
        secretAllowed: compileAreas('secret_allowed_paths', config.secret_allowed_paths),
        severityOf: (constraint) => config.severities[constraint] ?? DEFAULT_SEVERITIES[constraint] ?? config.violation_severity,
    };
    cache.set(config, compiled);
    return compiled;
}
/**
 * Problems with a policy for `proctor config validate` and the loader: errors make the policy
 * unusable; warnings describe settings that will not do what they seem to.
 */
function checkPolicyConfig(config) {
    const errors = [];
    const warnings = [];
    try {
        compilePolicy(config);
        testFileMatchers(config);
    }
    catch (error) {
        if (!(error instanceof PolicyConfigError))
            throw error;
        errors.push(error.message);
    }
    if (config.revert_on_violation) {
        // git_tamper is undone by policy.git_tamper, not by revert_on_violation: it does not count here. Nor
        // does secret_content's default (the file is withheld whatever its severity): the user chose no revert.
        const chosen = (c) => config.severities[c] ??
            (c === 'secret_content' ? null : (DEFAULT_SEVERITIES[c] ?? config.violation_severity));
        const anyCritical = CONSTRAINTS.some((c) => c !== 'git_tamper' && chosen(c) === 'critical');
        if (!anyCritical) {
            warnings.push('policy.revert_on_violation is true but no constraint has severity critical, so nothing will be reverted; ' +
                'set policy.violation_severity: critical or policy.severities.<constraint>: critical');
        }
    }
    for (const [a, b] of [
        ['allowed_areas', 'forbidden_areas'],
        ['allowed_areas', 'protected_areas'],
    ]) {
        for (const pattern of config[a]) {
            if (config[b].includes(pattern)) {
                warnings.push(`policy: "${pattern}" is in both policy.${a} and policy.${b}; the ${b} rule applies`);
            }
        }
    }
    return { errors, warnings };
}
function closest(word, candidates) {
    let best = null;
    let bestDistance = Infinity;
    for (const candidate of candidates) {
        const d = editDistance(word.toLowerCase(), candidate);
        if (d < bestDistance)
            [best, bestDistance] = [candidate, d];
    }
    return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}
function editDistance(a, b) {
    let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        const current = [i];
        for (let j = 1; j <= b.length; j++) {
            current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
        previous = current;
    }
    return previous[b.length];
}

var compile = /*#__PURE__*/Object.freeze({
    __proto__: null,
    checkPolicyConfig: checkPolicyConfig,
    compilePolicy: compilePolicy
});

const SEVERITIES = ['info', 'warning', 'error', 'critical'];
function severityRank(severity) {
    return SEVERITIES.indexOf(severity);
}
function atLeast(severity, min) {
    return severityRank(severity) >= severityRank(min);
}
/** The highest severity among `items`, or null when there are none. */
function maxSeverity(items) {
    let max = null;
    for (const item of items) {
        const severity = typeof item === 'string' ? item : item.severity;
        if (max === null || severityRank(severity) > severityRank(max))
            max = severity;
    }
    return max;
}
/** The agent hears about warnings and above. */
function notifiesAgent(violation) {
    return atLeast(violation.severity, 'warning');
}
/** `proctor / policy` fails when any violation is an error or critical. */
function failsPolicyCheck(violations) {
    for (const v of violations)
        if (atLeast(v.severity, 'error'))
            return true;
    return false;
}
/**
 * Whether the file of this violation is restored from the last valid checkpoint: only with
 * `revert_on_violation`, only at critical, and only for violations about one file (a diff_size
 * violation names no file to restore).
 */
function shouldRevert(violation, policy) {
    return policy.revert_on_violation && violation.severity === 'critical' && violation.file !== WHOLE_DIFF;
}
/** The distinct files to restore for a set of violations, in first-seen order. */
function filesToRevert(violations, policy) {
    const files = new Set();
    for (const v of violations)
        if (shouldRevert(v, policy))
            files.add(v.file);
    return [...files];
}

// Where does a symlink in the worktree point? The target string comes from git (what the checkpoint
// stores). Components are resolved the way the kernel does: left to right, and when the worktree
// holds a further link on the way, it is followed before a later ".." applies, so a chain
// (`a -> d/../x` with `d -> /etc`) cannot hide an escape behind a lexically harmless target.
/** Links followed before giving up, like the kernel's ELOOP limit; a loop never reaches outside. */
const MAX_HOPS = 40;
/**
 * Returns how the link at repo-relative `linkPath` with `target` escapes `worktree`, or null when it
 * stays inside (dangling links inside the worktree are harmless). With `followChains: false` the
 * verdict is purely lexical and the disk is not read.
 */
function findSymlinkEscape(linkPath, target, worktree, options = {}) {
    const roots = worktreeRoots(worktree);
    let onDisk = options.followChains !== false;
    let via;
    let hops = 0;
    const start = startOf(posix.dirname(linkPath), target, roots);
    if ('escape' in start)
        return start.escape;
    let { stack, queue } = start;
    while (queue.length > 0) {
        const part = queue.shift();
        if (part === '..') {
            if (stack.length === 0) {
                return {
                    resolved: posix.normalize(['..', ...queue].join('/')),
                    reason: 'outside',
                    ...(via ? { via } : {}),
                };
            }
            stack.pop();
            continue;
        }
        const candidate = [...stack, part].join('/');
        const link = onDisk ? readLinkAt(posix.join(worktree, candidate)) : null;
        if (link === undefined)
            onDisk = false; // missing: the rest cannot be links, finish lexically
        if (typeof link !== 'string') {
            stack.push(part);
            continue;
        }
        if (++hops > MAX_HOPS)
            return null;
        via = candidate;
        const next = startOf(stack.join('/'), link, roots);
        if ('escape' in next)
            return { ...next.escape, via };
        stack = next.stack;
        queue = [...next.queue, ...queue];
    }
    if (stack[0] === '.git')
        return { resolved: stack.join('/'), reason: 'git_dir', ...(via ? { via } : {}) };
    return null;
}
/**
 * Where resolution of `target` begins: the link's own directory, or the root for absolute targets
 * that name a path inside the worktree (their remaining components still go through the walk).
 */
function startOf(linkDir, target, roots) {
    if (/^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\\\')) {
        return { escape: { resolved: target, reason: 'outside' } };
    }
    if (!target.startsWith('/'))
        return { stack: split(linkDir), queue: split(target) };
    const prefixed = roots.find((r) => target === r || target.startsWith(`${r}/`));
    if (prefixed !== undefined)
        return { stack: [], queue: split(target.slice(prefixed.length)) };
    const absolute = posix.normalize(target);
    const root = roots.find((r) => absolute === r || absolute.startsWith(`${r}/`));
    if (root === undefined)
        return { escape: { resolved: absolute, reason: 'outside' } };
    return { stack: [], queue: split(absolute.slice(root.length)) };
}
function split(path) {
    return path.split('/').filter((part) => part !== '' && part !== '.');
}
/** The link's target, null when the path is not a link, undefined when it does not exist. */
function readLinkAt(path) {
    try {
        if (!lstatSync(path).isSymbolicLink())
            return null;
        return readlinkSync(path, 'utf8');
    }
    catch {
        return undefined;
    }
}
/** The worktree as given and as the OS spells it (e.g. /var vs /private/var on macOS). */
function worktreeRoots(worktree) {
    const given = posix.normalize(worktree).replace(/\/+$/, '');
    try {
        const real = realpathSync(worktree).replace(/\/+$/, '');
        return real === given ? [given] : [given, real];
    }
    catch {
        return [given];
    }
}

function secretFinding(file, shown) {
    const found = file.secret;
    if (!found || file.status === 'D')
        return null;
    const where = found.line === null ? shown : `${shown} line ${found.line}`;
    return {
        file: file.path,
        constraint: 'secret_content',
        message: found.rule === 'forbidden-copy'
            ? `${shown} holds ${found.what}; its content is kept out of checkpoints and pushes`
            : `${where} holds a secret (${found.what}; rule ${found.rule}); its content is kept out of checkpoints and pushes`,
        suggestion: found.rule === 'forbidden-copy'
            ? `Delete ${shown}: the content of forbidden files must not be copied or linked elsewhere.`
            : `Remove the secret from ${shown} and read it at run time instead (an environment variable, a secret store); never write credentials into the repository.`,
    };
}

// Policy on one diff: the changed files of a checkpoint (scope "checkpoint", against the previous
// checkpoint) or of the whole session (scope "cumulative", against the base) → violations.
const MODE_GITLINK = '160000';
/**
 * Every violation of `policy` in the diff, one per (file, constraint), in the order of the files.
 * Throws PolicyConfigError when the policy itself is unusable (bad glob, unknown severity key).
 */
function evaluatePolicy(input) {
    const policy = compilePolicy(input.policy);
    const findings = [];
    for (const file of input.files) {
        findings.push(...unsafePathFindings(file));
        findings.push(...areaFindings(file, policy));
        const symlink = symlinkFinding(file, input.worktree);
        if (symlink)
            findings.push(symlink);
        const executable = executableFinding(file, policy.config);
        if (executable)
            findings.push(executable);
        const size = fileSizeFinding(file, policy.config);
        if (size)
            findings.push(size);
        const secret = secretFinding(file, displayPath(file.path));
        if (secret)
            findings.push({ ...secret, constraint: 'secret_content' });
    }
    const diff = diffSizeFinding(input.files, policy.config, input.scope);
    if (diff)
        findings.push(diff);
    return dedupeViolations(findings.map((f) => ({ checkpoint: input.checkpoint, severity: policy.severityOf(f.constraint), ...f })));
}
/** Keeps the first violation per (file, constraint), raised to the highest severity seen for it. */
function dedupeViolations(violations) {
    const byKey = new Map();
    for (const v of violations) {
        const key = `${v.constraint}\0${v.file}`;
        const seen = byKey.get(key);
        if (!seen)
            byKey.set(key, v);
        else if (severityRank(v.severity) > severityRank(seen.severity))
            byKey.set(key, { ...seen, severity: v.severity });
    }
    return [...byKey.values()];
}
/** The paths a change touches, each with how it was touched, for the area rules. */
function touchedPaths(file) {
    if (file.status === 'R' && file.oldPath !== undefined) {
        return [
            { path: file.path, how: `renamed from ${displayPath(file.oldPath)}`, existed: false },
            { path: file.oldPath, how: `renamed to ${displayPath(file.path)}`, existed: true },
        ];
    }
    const how = { A: 'added', M: 'modified', D: 'deleted', T: 'changed type', R: 'renamed' }[file.status];
    return [{ path: file.path, how, existed: file.status !== 'A' }];
}
function areaFindings(file, policy) {
    const findings = [];
    for (const { path, how, existed } of touchedPaths(file)) {
        const shown = displayPath(path);
        const forbidden = policy.forbidden.match(path);
        if (forbidden) {
            findings.push({
                file: path,
                constraint: 'forbidden_area',
                message: `${shown} was ${how}, but it is in a forbidden area (policy.forbidden_areas "${forbidden}")`,
                suggestion: `Undo the change to ${shown}${existed ? '' : ` (delete it: rm ${shellQuote(path)})`}; nothing matching "${forbidden}" may be changed. If the agent should work there, remove "${forbidden}" from policy.forbidden_areas.`,
            });
        }
        // Protection covers additions too: a new workflow under a protected .github/workflows/ runs with the
        // repository's secrets as surely as an edited one.
        const protectedBy = policy.protected.match(path);
        if (protectedBy) {
            findings.push({
                file: path,
                constraint: 'protected_area',
                message: `${shown} is protected (policy.protected_areas "${protectedBy}") and was ${how}`,
                suggestion: existed
                    ? `Restore ${shown} to its original content (git checkout HEAD -- ${shellQuote(path)}). To allow edits, add "!${path}" to policy.protected_areas.`
                    : `Remove ${shown} (rm ${shellQuote(path)}); nothing may be added under "${protectedBy}". To allow it, add "!${path}" to policy.protected_areas.`,
            });
        }
        if (!policy.allowed.empty && !policy.allowed.match(path)) {
            const areas = policy.config.allowed_areas.filter((p) => !p.startsWith('!'));
            const home = baseDir(areas[0]);
            findings.push({
                file: path,
                constraint: 'outside_allowed',
                message: `${shown} was ${how}, outside the allowed areas (${areas.map((p) => `"${p}"`).join(', ')})`,
                suggestion: `Move the change under ${home ? `${home}/` : `an allowed area`} or add the path to policy.allowed_areas.`,
            });
        }
    }
    return findings;
}
/** C0 controls and DEL: a newline in a path forges lines in logs, commit messages and `git status`. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** A path as it can be printed: JSON-quoted when it holds control characters. */
function displayPath(path) {
    return CONTROL_CHARS.test(path) ? JSON.stringify(path) : path;
}
function unsafePathFindings(file) {
    if (file.status === 'D')
        return [];
    const path = file.path;
    if (!CONTROL_CHARS.test(path))
        return [];
    return [
        {
            file: path,
            constraint: 'unsafe_path',
            message: `${displayPath(path)} was ${file.status === 'A' ? 'added' : 'changed'}, and its name holds control characters (a newline or tab in a file name forges lines in logs and tools)`,
            suggestion: `Rename it to a name without control characters (only printable characters).`,
        },
    ];
}
function symlinkFinding(file, worktree) {
    if (file.status === 'D' || file.newMode !== MODE_SYMLINK)
        return null;
    const target = file.symlinkTarget ?? readLinkOrNull(join(worktree, file.path));
    if (target === null)
        return null;
    const escape = findSymlinkEscape(file.path, target, worktree);
    if (!escape)
        return null;
    const where = escape.reason === 'git_dir'
        ? `into the repository's .git directory (${escape.resolved})`
        : `outside the worktree (${escape.resolved})`;
    return {
        file: file.path,
        constraint: 'symlink_escape',
        message: `${displayPath(file.path)} is a symlink to "${target}", which resolves ${where}${escape.via ? ` through the link ${escape.via}` : ''}`,
        suggestion: `Replace ${displayPath(file.path)} with a regular file, or point it at a path inside the repository.`,
    };
}
function executableFinding(file, config) {
    if (config.allow_new_executables || file.status === 'D')
        return null;
    if (file.newMode !== MODE_EXECUTABLE || file.oldMode === MODE_EXECUTABLE)
        return null;
    const what = file.oldMode === null
        ? `was added as an executable (mode ${MODE_EXECUTABLE})`
        : `was made executable (mode ${file.oldMode} → ${MODE_EXECUTABLE})`;
    return {
        file: file.path,
        constraint: 'new_executable',
        message: `${displayPath(file.path)} ${what}, and policy.allow_new_executables is false`,
        suggestion: `Remove the executable bit (chmod -x ${shellQuote(file.path)}), or set policy.allow_new_executables: true.`,
    };
}
function fileSizeFinding(file, config) {
    const max = config.max_file_size;
    if (max === undefined || file.status === 'D' || file.newMode === MODE_GITLINK)
        return null;
    if (file.size === null || file.size <= max)
        return null;
    return {
        file: file.path,
        constraint: 'file_size',
        message: `${displayPath(file.path)} is ${formatSize(file.size)}, over policy.max_file_size (${formatSize(max)})`,
        suggestion: `Keep large generated or binary files out of the repository (add ${displayPath(file.path)} to .gitignore), or raise policy.max_file_size.`,
    };
}
/**
 * Diff size = the bytes of new content the diff writes: the full size of every added, modified,
 * type-changed or renamed file (deletions and submodules count 0). It is what the checkpoint has to
 * store and push, which is what the limit protects.
 */
function diffSize(files) {
    let bytes = 0;
    let counted = 0;
    let added = 0;
    let deleted = 0;
    for (const file of files) {
        added += file.linesAdded ?? 0;
        deleted += file.linesDeleted ?? 0;
        if (file.status === 'D' || file.newMode === MODE_GITLINK)
            continue;
        bytes += file.size ?? 0;
        counted++;
    }
    return { bytes, files: counted, added, deleted };
}
function diffSizeFinding(files, config, scope) {
    const max = config.max_diff_size;
    if (max === undefined)
        return null;
    const size = diffSize(files);
    if (size.bytes <= max)
        return null;
    const since = scope === 'checkpoint' ? 'since the previous checkpoint' : 'since the session started';
    return {
        file: WHOLE_DIFF,
        constraint: 'diff_size',
        message: `The changes ${since} write ${formatSize(size.bytes)} in ${size.files} files (+${size.added}/-${size.deleted} lines), over policy.max_diff_size (${formatSize(max)})`,
        suggestion: `Work in smaller steps, keep generated files out of the repository (.gitignore), or raise policy.max_diff_size.`,
    };
}
/** The literal directory a glob starts with ("src/**" → "src"), for suggestions. */
function baseDir(pattern) {
    return picomatch.scan(pattern.replace(/^\.\//, '').replace(/^\/+/, '')).base.replace(/\/+$/, '');
}
function readLinkOrNull(path) {
    try {
        return readlinkSync(path, 'utf8');
    }
    catch {
        return null;
    }
}
/** `path` as one shell word, for the commands suggestions give. */
function shellQuote(path) {
    // bash's $'...' spells control characters as escapes, so the command stays one line.
    if (CONTROL_CHARS.test(path))
        return `$'${path.replace(/[\\']/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
    return /^[A-Za-z0-9_./-]+$/.test(path) && !path.startsWith('-') ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
/**
 * A checkpoint's verdict: its own diff and the session's cumulative diff (some constraints, such as the
 * total diff size, only show in one of them), each (file, constraint) once. `withheld` are changes the
 * checkpoint left out (files in forbidden areas): they are judged in both scopes, since the worktree
 * still holds them.
 */
function evaluateCheckpoint(input) {
    return evaluateCheckpointScopes(input).all;
}
/**
 * `all`: every violation of the checkpoint (both scopes). `cumulative`: the ones the session's work
 * holds right now — what the policy gate asks the agent to fix.
 */
function evaluateCheckpointScopes(input) {
    const { seq, worktree, policy } = input;
    const withheld = input.withheld ?? [];
    // Withheld (forbidden) files first: they lead the reasons the agent is sent back with.
    const cumulative = evaluatePolicy({
        files: [...withheld, ...input.cumulative],
        checkpoint: seq,
        worktree,
        policy,
        scope: 'cumulative',
    });
    const own = evaluatePolicy({
        files: [...withheld, ...input.files],
        checkpoint: seq,
        worktree,
        policy,
        scope: 'checkpoint',
    });
    return { all: dedupeViolations([...own, ...cumulative]), cumulative };
}
/**
 * The checkpoint store's `withhold` for a policy: the forbidden area a path is in (its content must
 * never be written into a checkpoint), or null.
 */
function forbiddenAreaOf(policy) {
    const compiled = compilePolicy(policy);
    if (compiled.forbidden.empty)
        return () => null;
    return (path) => {
        const area = compiled.forbidden.match(path);
        return area === null ? null : `in a forbidden area (policy.forbidden_areas "${area}")`;
    };
}

export { CONSTRAINTS as C, DEFAULT_SEVERITIES as D, SEVERITIES as S, WHOLE_DIFF as W, atLeast as a, testFileMatchers as b, compilePolicy as c, checkPolicyConfig as d, evaluatePolicy as e, failsPolicyCheck as f, dedupeViolations as g, diffSize as h, displayPath as i, evaluateCheckpoint as j, evaluateCheckpointScopes as k, filesToRevert as l, findSymlinkEscape as m, forbiddenAreaOf as n, maxSeverity as o, notifiesAgent as p, shouldRevert as q, shellQuote as r, severityRank as s, testsWeakened as t, compile as u };
