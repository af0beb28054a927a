import { o as readRegularFile } from './checkpoints-create-CJcO-Brq.js';
import { K as KnownValues, k as knownSecrets } from './known-CWjnSJ5I.js';

import './errors-lvn-GX78.js';



import './exit-DPvLwpPv.js';
import './secret-forms-Ct3YzP3D.js';

/**
 * What each rule of the preset needs in the text before it can match, read from its patterns (the head of
 * each, without the look-arounds and the checks that come after a match). A superset: it lets through text
 * no rule reports, never text a rule would report (test/unit/secret-scan.test.ts holds a sample of every
 * rule). Keep it in step with the preset when its version changes.
 *
 * Two regexes, each starting with few characters: irregexp scans for those and only then tries the rest,
 * which is about twice as fast as one alternation whose branches start with twenty different letters.
 */
const BY_SEPARATOR = new RegExp([
    // tokens by prefix, anchored at the `_` after it: GitHub, GitLab, npm, Groq, Hugging Face, Linear, Notion,
    // Shopify, Stripe, 1Password, Vercel, Docker, Figma, Cloudflare, Grafana
    '_(?:(?<=gh[pousr]_)[A-Za-z0-9_]{36}|(?<=ghs_)[0-9]|(?<=github_pat_)|(?<=glc_)|(?<=glsa_)',
    '(?<=npm_)[A-Za-z0-9_]{36}|authToken=|(?<=gsk_)[a-zA-Z0-9]{52}|(?<=hf_)[a-zA-Z]{34}|(?<=lin_api_)',
    '(?<=ntn_)[0-9]{11}|(?<=shp(?:pa|ca|at|ss)_)[a-zA-Z0-9]{32}|(?<=[sr]k_(?:live|test)_)[a-zA-Z0-9]{24}',
    '(?<=ops_)ey|(?<=vc[picark]_)[A-Za-z0-9]{20}|(?<=dckr_pat_)|(?<=figd_)|(?<=cf(?:k|ut|at)_)[A-Za-z0-9]{40})',
    // at the `-`: GitLab, Slack, OpenAI and Anthropic, Tailscale; PEM private keys (gcp's JSON holds one)
    '-(?:(?<=glpat-)[A-Za-z0-9_-]{20}|(?<=xox[bpaor]-)|(?<=xapp-)|(?<=sk-)(?:proj-|svcacct-|admin-|ant-api0)',
    '(?<=tskey-)|----BEGIN)',
    // at the `.`: SendGrid, HashiCorp Vault, Slack's hooks
    '\\.(?:(?<=SG\\.)\\w|(?<=hv[sbr]\\.)[A-Za-z0-9_-]{90}|(?<=[Hh][Oo][Oo][Kk][Ss]\\.)[Ss][Ll][Aa][Cc][Kk]\\.)',
    // at the `:`: a user and password in a URL (basicauth, database URLs), npm's x-oauth-basic
    ':(?:\\/\\/[^:/\\t-\\r ]{1,256}:[^@/\\t-\\r ]{1,256}@|x-oauth-basic@)',
].join('|'));
const BY_WORD = new RegExp([
    // aws: access key ids, `aws_secret_access_key = …`, `aws_account_id = 1234…` (the first letter left off)
    'A(?:3T[A-Z0-9]|KIA|GPA|IDA|ROA|IPA|NPA|NVA|SIA)[A-Z0-9]{16}',
    '(?:ECRET|ecret)_?(?:ACCESS|[Aa]ccess)_?(?:KEY|[Kk]ey)',
    '(?:CCOUNT|ccount)_?(?:ID|[Ii]d)?["\']?\\s*(?::|=>|=)\\s*["\']?[0-9]{4}',
    // OpenAI's older keys, Databricks
    'T3BlbkFJ|dapi[A-Fa-f0-9]{32}',
].join('|'));
let loaded;
/** secretlint and the preset, loaded at the first text the prefilter lets through. */
function load() {
    loaded ??= Promise.all([
        import('./index-D-5fPI0i.js'),
        import('./index-BxiyY94F.js'),
    ]).then(([core, preset]) => ({
        lint: core.lintSource,
        config: {
            // Each rule of the preset on its own, without `filter-comments`: `secretlint-disable` comments are for
            // a project's own reviewed exceptions, and an agent must not switch the scan off by writing one next
            // to the key it adds. (A preset's `rules: [{ id, disabled: true }]` is not honoured by core 13.1.0.)
            rules: preset.rules
                .filter((rule) => rule.meta.id !== '@secretlint/secretlint-rule-filter-comments')
                .map((rule) => ({ id: rule.meta.id, rule })),
        },
    }));
    return loaded;
}
/** Whether secretlint needs to look at `text` at all. */
function mayHoldToken(text) {
    return BY_SEPARATOR.test(text) || BY_WORD.test(text);
}
/** The first secret the preset finds in `text` (a file named `name`), or null. */
async function findByRules(name, text) {
    if (!mayHoldToken(text))
        return null;
    const { lint, config } = await load();
    const ext = /\.[^./]+$/.exec(name)?.[0] ?? '';
    const result = await lint({
        // The GCP rule reads a `.p12` file from disk by its name: proctor hands it the bytes it read itself
        // and no path it could open (a FIFO planted there would block it).
        source: {
            filePath: `/proctor-scan/${name}`,
            content: text,
            contentType: 'text',
            ext: ext === '.p12' ? '' : ext,
        },
        // Not maskSecrets: it masks the rule's type name too. Only the rule id, the type name and the line are
        // taken from a message; its text, which quotes the secret, is never read.
        options: { config, noPhysicFilePath: true },
    });
    const first = result.messages.find((m) => m.type === 'message');
    if (!first)
        return null;
    const typeName = first.data?.typeName;
    return {
        rule: first.ruleId,
        what: typeof typeName === 'string' ? typeName : shortRule(first.ruleId),
        line: first.loc.start.line,
    };
}
function shortRule(id) {
    return id.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** Read in full up to this much (checkpoints.max_file_size, 5 MiB by default, leaves larger files out anyway). */
const MAX_SCAN_BYTES = 64 * 1024 * 1024;
/** A forbidden file's copy must be this long to count: an empty or one-line file matches too much. */
const MIN_COPY_BYTES = 16;
class ContentScanner {
    known;
    /** sha256 of each forbidden file's bytes → its path. */
    forbidden = new Map();
    /** Per path: the stat it was last judged at and what was found, so an unchanged file is not read again. */
    judged = new Map();
    forbiddenSeen = new Map();
    rulesSkip;
    constructor(options = {}) {
        this.known = new KnownValues(options.known ?? knownSecrets());
        this.rulesSkip = options.rulesSkip ?? (() => false);
    }
    /**
     * Remembers the bytes of a file in a forbidden area (the baseline's and any the agent writes later), so
     * the same bytes anywhere else are a finding. `file` is absolute.
     */
    forbid(file, relative, stat) {
        if (!stat.isFile() || stat.size < MIN_COPY_BYTES)
            return;
        const key = statKey(stat);
        if (this.forbiddenSeen.get(relative) === key)
            return;
        let bytes;
        try {
            bytes = readRegularFile(file, stat.size);
        }
        catch {
            return;
        }
        this.forbiddenSeen.set(relative, key);
        this.forbidden.set(digest(bytes), relative);
    }
    /** What makes `relative` (the file at `file`, of this stat) unfit for a checkpoint, or null. */
    async scanFile(file, relative, stat) {
        const key = statKey(stat);
        const seen = this.judged.get(relative);
        if (seen?.key === key)
            return seen.finding;
        let bytes;
        try {
            // Not capped at the size the listing saw: a file that grew since is read whole, as git will read it.
            bytes = readRegularFile(file, Math.max(stat.size, MAX_SCAN_BYTES));
        }
        catch {
            return null; // gone or swapped since the listing: git reads it next, and the next checkpoint judges it
        }
        const finding = await this.scanBytes(relative, bytes);
        this.judged.set(relative, { key, finding });
        return finding;
    }
    /** The finding in `bytes` (the content of `relative`), or null. */
    async scanBytes(relative, bytes) {
        if (this.forbidden.size > 0 && bytes.length >= MIN_COPY_BYTES) {
            const original = this.forbidden.get(digest(bytes));
            if (original !== undefined && original !== relative)
                return {
                    rule: 'forbidden-copy',
                    what: `a copy of ${original}, which is in a forbidden area`,
                    line: null,
                };
        }
        const text = bytes.toString('utf8');
        return this.known.find(text) ?? (this.rulesSkip(relative) ? null : await findByRules(relative, text));
    }
}
function statKey(stat) {
    return `${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`;
}
function digest(bytes) {
    // Loaded on first use: a session opens its store before the agent's spawn, and node:crypto costs it there.
    const { createHash } = process.getBuiltinModule('node:crypto');
    return createHash('sha256').update(bytes).digest('hex');
}

export { ContentScanner };
