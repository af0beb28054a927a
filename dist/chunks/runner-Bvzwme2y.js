import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import path, { normalize } from 'node:path';
import require$$0$1 from 'node:util';
import { a as getDefaultExportFromCjs } from './_commonjsHelpers-eQonu12B.js';
import require$$1 from 'tty';
import require$$0 from 'util';
import os__default from 'os';
import fs__default from 'fs';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';

// A token for one git command, never for the repository: actions/checkout's default stores its token in
// .git/config (`http.<url>.extraheader`), where anything running in the worktree (the agent, a stop hook
// running the agent's code) reads it. proctor instead hands its token to the single push or fetch that
// needs it, as GIT_CONFIG_* environment entries of that process (not argv, which every process can read).
/** Config entries that send `token` as GitHub expects it (HTTP Basic, user x-access-token) to `url`'s host. */
function tokenHeaderConfig(url, token) {
    let origin;
    try {
        origin = new URL(url).origin;
    }
    catch {
        return [];
    }
    if (!/^https?:/.test(origin))
        return [];
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    return [[`http.${origin}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}
/** GIT_CONFIG_COUNT/KEY/VALUE entries appended after those `base` already has. */
function configEnv(base, entries) {
    if (entries.length === 0)
        return {};
    const first = Number(base.GIT_CONFIG_COUNT) || 0;
    const env = { GIT_CONFIG_COUNT: String(first + entries.length) };
    entries.forEach(([key, value], i) => {
        env[`GIT_CONFIG_KEY_${first + i}`] = key;
        env[`GIT_CONFIG_VALUE_${first + i}`] = value;
    });
    return env;
}
/** `http.<url>.extraheader` entries of the repository's config: a persisted credential the agent can read. */
function persistedCredentialKeys(configList) {
    return configList
        .split('\0')
        .map((entry) => entry.slice(0, entry.indexOf('\n') === -1 ? entry.length : entry.indexOf('\n')))
        .filter((key) => /^http\..*\.extraheader$/i.test(key) || /^http\.extraheader$/i.test(key));
}

// The environment every git call runs with. Inherited variables that point git at another repository,
// index or object store are dropped: a hook or wrapper that exported them must never redirect our
// plumbing (or worse, make it write the user's index).
/** Inherited variables that redirect which repository, index or objects git uses, or how pathspecs parse. */
const REDIRECTING_GIT_VARS = [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_INDEX_VERSION',
    'GIT_OBJECT_DIRECTORY',
    'GIT_ALTERNATE_OBJECT_DIRECTORIES',
    'GIT_QUARANTINE_PATH',
    'GIT_COMMON_DIR',
    'GIT_NAMESPACE',
    'GIT_CEILING_DIRECTORIES',
    'GIT_DISCOVERY_ACROSS_FILESYSTEM',
    'GIT_PREFIX',
    'GIT_TEMPLATE_DIR',
    'GIT_SHALLOW_FILE',
    'GIT_REPLACE_REF_BASE',
    'GIT_NO_REPLACE_OBJECTS',
    'GIT_GRAFT_FILE',
    // We build pathspecs with explicit magic; these would change how every one of them is read.
    'GIT_LITERAL_PATHSPECS',
    'GIT_GLOB_PATHSPECS',
    'GIT_NOGLOB_PATHSPECS',
    'GIT_ICASE_PATHSPECS',
    // Set by proctor per call, never inherited.
    'GIT_OPTIONAL_LOCKS',
    'GIT_TERMINAL_PROMPT',
];
const REDIRECTING = new Set(REDIRECTING_GIT_VARS);
/**
 * process.env minus the redirecting GIT_* variables, plus proctor's fixed settings. `GIT_OPTIONAL_LOCKS=0`
 * keeps read commands (status, diff) from refreshing and rewriting the user's index; `GIT_TERMINAL_PROMPT=0`
 * turns a credential prompt in CI into a fast failure instead of a hang.
 */
function sanitizedGitEnv(base = process.env) {
    const env = {};
    for (const [key, value] of Object.entries(base)) {
        if (value === undefined)
            continue;
        if (REDIRECTING.has(key.toUpperCase()))
            continue;
        env[key] = value;
    }
    env.GIT_OPTIONAL_LOCKS = '0';
    env.GIT_TERMINAL_PROMPT = '0';
    // Messages we classify (push rejections, missing remotes) must be in English.
    env.LC_ALL = 'C';
    env.LANGUAGE = 'C';
    return env;
}
/**
 * `-c` settings for every call. All are safe for commands that only read the user's repository:
 * they change how our own commits are made (no signing prompt, no hooks) and skip the fsmonitor
 * daemon, whose answers are about the user's index, not ours.
 */
const BASE_CONFIG = [
    'commit.gpgSign=false',
    'tag.gpgSign=false',
    'core.fsmonitor=false',
    'core.hooksPath=/dev/null',
    'core.quotePath=false',
    'advice.addEmbeddedRepo=false',
    'advice.detachedHead=false',
    'gc.auto=0',
    'maintenance.auto=false',
];
/**
 * Extra settings for calls on the private index only. They change the index FORMAT (split index,
 * untracked cache) or trust in stat data (ignoreStat), so they are never applied where the user's
 * index could be written; on our private index they keep it one plain file that notices every edit.
 */
const PRIVATE_INDEX_CONFIG = [
    'core.splitIndex=false',
    'core.untrackedCache=false',
    'core.ignoreStat=false',
    'index.skipHash=false',
];
const FALLBACK_IDENTITY = { name: 'proctor', email: 'proctor@localhost' };

/** The last few lines of a command's stderr, enough to see why it failed without flooding a log. */
function tail(text, maxLines = 12, maxChars = 2000) {
    const lines = text.trimEnd().split('\n');
    const kept = lines.slice(-maxLines).join('\n');
    return kept.length > maxChars ? kept.slice(-maxChars) : kept;
}
/** A git command that failed. The message names the command, how it ended and the end of its stderr. */
class GitError extends Error {
    args;
    cwd;
    exitCode;
    signal;
    stderr;
    constructor(details, summary) {
        const how = details.exitCode !== null
            ? `exit code ${details.exitCode}`
            : details.signal
                ? `signal ${details.signal}`
                : 'could not start';
        const stderrTail = tail(details.stderr);
        const head = summary ?? `git ${details.args.join(' ')} failed (${how}) in ${details.cwd}`;
        super(stderrTail ? `${head}\n${stderrTail}` : head, details.cause ? { cause: details.cause } : undefined);
        this.name = 'GitError';
        this.args = details.args;
        this.cwd = details.cwd;
        this.exitCode = details.exitCode;
        this.signal = details.signal;
        this.stderr = details.stderr;
    }
}
/** A compare-and-swap ref update lost: the ref no longer points where we expected. */
class RefMovedError extends GitError {
    ref;
    expected;
    constructor(ref, expected, details) {
        super(details, `${ref} moved: expected ${expected ?? 'no ref'}, but something else updated it; nothing was overwritten`);
        this.name = 'RefMovedError';
        this.ref = ref;
        this.expected = expected;
    }
}

var src$1 = {exports: {}};

var browser = {exports: {}};

/**
 * Helpers.
 */

var ms$1;
var hasRequiredMs;

function requireMs () {
	if (hasRequiredMs) return ms$1;
	hasRequiredMs = 1;
	var s = 1000;
	var m = s * 60;
	var h = m * 60;
	var d = h * 24;
	var w = d * 7;
	var y = d * 365.25;

	/**
	 * Parse or format the given `val`.
	 *
	 * Options:
	 *
	 *  - `long` verbose formatting [false]
	 *
	 * @param {String|Number} val
	 * @param {Object} [options]
	 * @throws {Error} throw an error if val is not a non-empty string or a number
	 * @return {String|Number}
	 * @api public
	 */

	ms$1 = function (val, options) {
	  options = options || {};
	  var type = typeof val;
	  if (type === 'string' && val.length > 0) {
	    return parse(val);
	  } else if (type === 'number' && isFinite(val)) {
	    return options.long ? fmtLong(val) : fmtShort(val);
	  }
	  throw new Error(
	    'val is not a non-empty string or a valid number. val=' +
	      JSON.stringify(val)
	  );
	};

	/**
	 * Parse the given `str` and return milliseconds.
	 *
	 * @param {String} str
	 * @return {Number}
	 * @api private
	 */

	function parse(str) {
	  str = String(str);
	  if (str.length > 100) {
	    return;
	  }
	  var match = /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i.exec(
	    str
	  );
	  if (!match) {
	    return;
	  }
	  var n = parseFloat(match[1]);
	  var type = (match[2] || 'ms').toLowerCase();
	  switch (type) {
	    case 'years':
	    case 'year':
	    case 'yrs':
	    case 'yr':
	    case 'y':
	      return n * y;
	    case 'weeks':
	    case 'week':
	    case 'w':
	      return n * w;
	    case 'days':
	    case 'day':
	    case 'd':
	      return n * d;
	    case 'hours':
	    case 'hour':
	    case 'hrs':
	    case 'hr':
	    case 'h':
	      return n * h;
	    case 'minutes':
	    case 'minute':
	    case 'mins':
	    case 'min':
	    case 'm':
	      return n * m;
	    case 'seconds':
	    case 'second':
	    case 'secs':
	    case 'sec':
	    case 's':
	      return n * s;
	    case 'milliseconds':
	    case 'millisecond':
	    case 'msecs':
	    case 'msec':
	    case 'ms':
	      return n;
	    default:
	      return undefined;
	  }
	}

	/**
	 * Short format for `ms`.
	 *
	 * @param {Number} ms
	 * @return {String}
	 * @api private
	 */

	function fmtShort(ms) {
	  var msAbs = Math.abs(ms);
	  if (msAbs >= d) {
	    return Math.round(ms / d) + 'd';
	  }
	  if (msAbs >= h) {
	    return Math.round(ms / h) + 'h';
	  }
	  if (msAbs >= m) {
	    return Math.round(ms / m) + 'm';
	  }
	  if (msAbs >= s) {
	    return Math.round(ms / s) + 's';
	  }
	  return ms + 'ms';
	}

	/**
	 * Long format for `ms`.
	 *
	 * @param {Number} ms
	 * @return {String}
	 * @api private
	 */

	function fmtLong(ms) {
	  var msAbs = Math.abs(ms);
	  if (msAbs >= d) {
	    return plural(ms, msAbs, d, 'day');
	  }
	  if (msAbs >= h) {
	    return plural(ms, msAbs, h, 'hour');
	  }
	  if (msAbs >= m) {
	    return plural(ms, msAbs, m, 'minute');
	  }
	  if (msAbs >= s) {
	    return plural(ms, msAbs, s, 'second');
	  }
	  return ms + ' ms';
	}

	/**
	 * Pluralization helper.
	 */

	function plural(ms, msAbs, n, name) {
	  var isPlural = msAbs >= n * 1.5;
	  return Math.round(ms / n) + ' ' + name + (isPlural ? 's' : '');
	}
	return ms$1;
}

var common;
var hasRequiredCommon;

function requireCommon () {
	if (hasRequiredCommon) return common;
	hasRequiredCommon = 1;
	/**
	 * This is the common logic for both the Node.js and web browser
	 * implementations of `debug()`.
	 */

	function setup(env) {
		createDebug.debug = createDebug;
		createDebug.default = createDebug;
		createDebug.coerce = coerce;
		createDebug.disable = disable;
		createDebug.enable = enable;
		createDebug.enabled = enabled;
		createDebug.humanize = requireMs();
		createDebug.destroy = destroy;

		Object.keys(env).forEach(key => {
			createDebug[key] = env[key];
		});

		/**
		* The currently active debug mode names, and names to skip.
		*/

		createDebug.names = [];
		createDebug.skips = [];

		/**
		* Map of special "%n" handling functions, for the debug "format" argument.
		*
		* Valid key names are a single, lower or upper-case letter, i.e. "n" and "N".
		*/
		createDebug.formatters = {};

		/**
		* Selects a color for a debug namespace
		* @param {String} namespace The namespace string for the debug instance to be colored
		* @return {Number|String} An ANSI color code for the given namespace
		* @api private
		*/
		function selectColor(namespace) {
			let hash = 0;

			for (let i = 0; i < namespace.length; i++) {
				hash = ((hash << 5) - hash) + namespace.charCodeAt(i);
				hash |= 0; // Convert to 32bit integer
			}

			return createDebug.colors[Math.abs(hash) % createDebug.colors.length];
		}
		createDebug.selectColor = selectColor;

		/**
		* Create a debugger with the given `namespace`.
		*
		* @param {String} namespace
		* @return {Function}
		* @api public
		*/
		function createDebug(namespace) {
			let prevTime;
			let enableOverride = null;
			let namespacesCache;
			let enabledCache;

			function debug(...args) {
				// Disabled?
				if (!debug.enabled) {
					return;
				}

				const self = debug;

				// Set `diff` timestamp
				const curr = Number(new Date());
				const ms = curr - (prevTime || curr);
				self.diff = ms;
				self.prev = prevTime;
				self.curr = curr;
				prevTime = curr;

				args[0] = createDebug.coerce(args[0]);

				if (typeof args[0] !== 'string') {
					// Anything else let's inspect with %O
					args.unshift('%O');
				}

				// Apply any `formatters` transformations
				let index = 0;
				args[0] = args[0].replace(/%([a-zA-Z%])/g, (match, format) => {
					// If we encounter an escaped % then don't increase the array index
					if (match === '%%') {
						return '%';
					}
					index++;
					const formatter = createDebug.formatters[format];
					if (typeof formatter === 'function') {
						const val = args[index];
						match = formatter.call(self, val);

						// Now we need to remove `args[index]` since it's inlined in the `format`
						args.splice(index, 1);
						index--;
					}
					return match;
				});

				// Apply env-specific formatting (colors, etc.)
				createDebug.formatArgs.call(self, args);

				const logFn = self.log || createDebug.log;
				logFn.apply(self, args);
			}

			debug.namespace = namespace;
			debug.useColors = createDebug.useColors();
			debug.color = createDebug.selectColor(namespace);
			debug.extend = extend;
			debug.destroy = createDebug.destroy; // XXX Temporary. Will be removed in the next major release.

			Object.defineProperty(debug, 'enabled', {
				enumerable: true,
				configurable: false,
				get: () => {
					if (enableOverride !== null) {
						return enableOverride;
					}
					if (namespacesCache !== createDebug.namespaces) {
						namespacesCache = createDebug.namespaces;
						enabledCache = createDebug.enabled(namespace);
					}

					return enabledCache;
				},
				set: v => {
					enableOverride = v;
				}
			});

			// Env-specific initialization logic for debug instances
			if (typeof createDebug.init === 'function') {
				createDebug.init(debug);
			}

			return debug;
		}

		function extend(namespace, delimiter) {
			const newDebug = createDebug(this.namespace + (typeof delimiter === 'undefined' ? ':' : delimiter) + namespace);
			newDebug.log = this.log;
			return newDebug;
		}

		/**
		* Enables a debug mode by namespaces. This can include modes
		* separated by a colon and wildcards.
		*
		* @param {String} namespaces
		* @api public
		*/
		function enable(namespaces) {
			createDebug.save(namespaces);
			createDebug.namespaces = namespaces;

			createDebug.names = [];
			createDebug.skips = [];

			const split = (typeof namespaces === 'string' ? namespaces : '')
				.trim()
				.replace(/\s+/g, ',')
				.split(',')
				.filter(Boolean);

			for (const ns of split) {
				if (ns[0] === '-') {
					createDebug.skips.push(ns.slice(1));
				} else {
					createDebug.names.push(ns);
				}
			}
		}

		/**
		 * Checks if the given string matches a namespace template, honoring
		 * asterisks as wildcards.
		 *
		 * @param {String} search
		 * @param {String} template
		 * @return {Boolean}
		 */
		function matchesTemplate(search, template) {
			let searchIndex = 0;
			let templateIndex = 0;
			let starIndex = -1;
			let matchIndex = 0;

			while (searchIndex < search.length) {
				if (templateIndex < template.length && (template[templateIndex] === search[searchIndex] || template[templateIndex] === '*')) {
					// Match character or proceed with wildcard
					if (template[templateIndex] === '*') {
						starIndex = templateIndex;
						matchIndex = searchIndex;
						templateIndex++; // Skip the '*'
					} else {
						searchIndex++;
						templateIndex++;
					}
				} else if (starIndex !== -1) { // eslint-disable-line no-negated-condition
					// Backtrack to the last '*' and try to match more characters
					templateIndex = starIndex + 1;
					matchIndex++;
					searchIndex = matchIndex;
				} else {
					return false; // No match
				}
			}

			// Handle trailing '*' in template
			while (templateIndex < template.length && template[templateIndex] === '*') {
				templateIndex++;
			}

			return templateIndex === template.length;
		}

		/**
		* Disable debug output.
		*
		* @return {String} namespaces
		* @api public
		*/
		function disable() {
			const namespaces = [
				...createDebug.names,
				...createDebug.skips.map(namespace => '-' + namespace)
			].join(',');
			createDebug.enable('');
			return namespaces;
		}

		/**
		* Returns true if the given mode name is enabled, false otherwise.
		*
		* @param {String} name
		* @return {Boolean}
		* @api public
		*/
		function enabled(name) {
			for (const skip of createDebug.skips) {
				if (matchesTemplate(name, skip)) {
					return false;
				}
			}

			for (const ns of createDebug.names) {
				if (matchesTemplate(name, ns)) {
					return true;
				}
			}

			return false;
		}

		/**
		* Coerce `val`.
		*
		* @param {Mixed} val
		* @return {Mixed}
		* @api private
		*/
		function coerce(val) {
			if (val instanceof Error) {
				return val.stack || val.message;
			}
			return val;
		}

		/**
		* XXX DO NOT USE. This is a temporary stub function.
		* XXX It WILL be removed in the next major release.
		*/
		function destroy() {
			console.warn('Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.');
		}

		createDebug.enable(createDebug.load());

		return createDebug;
	}

	common = setup;
	return common;
}

/* eslint-env browser */

var hasRequiredBrowser;

function requireBrowser () {
	if (hasRequiredBrowser) return browser.exports;
	hasRequiredBrowser = 1;
	(function (module, exports) {
		/**
		 * This is the web browser implementation of `debug()`.
		 */

		exports.formatArgs = formatArgs;
		exports.save = save;
		exports.load = load;
		exports.useColors = useColors;
		exports.storage = localstorage();
		exports.destroy = (() => {
			let warned = false;

			return () => {
				if (!warned) {
					warned = true;
					console.warn('Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.');
				}
			};
		})();

		/**
		 * Colors.
		 */

		exports.colors = [
			'#0000CC',
			'#0000FF',
			'#0033CC',
			'#0033FF',
			'#0066CC',
			'#0066FF',
			'#0099CC',
			'#0099FF',
			'#00CC00',
			'#00CC33',
			'#00CC66',
			'#00CC99',
			'#00CCCC',
			'#00CCFF',
			'#3300CC',
			'#3300FF',
			'#3333CC',
			'#3333FF',
			'#3366CC',
			'#3366FF',
			'#3399CC',
			'#3399FF',
			'#33CC00',
			'#33CC33',
			'#33CC66',
			'#33CC99',
			'#33CCCC',
			'#33CCFF',
			'#6600CC',
			'#6600FF',
			'#6633CC',
			'#6633FF',
			'#66CC00',
			'#66CC33',
			'#9900CC',
			'#9900FF',
			'#9933CC',
			'#9933FF',
			'#99CC00',
			'#99CC33',
			'#CC0000',
			'#CC0033',
			'#CC0066',
			'#CC0099',
			'#CC00CC',
			'#CC00FF',
			'#CC3300',
			'#CC3333',
			'#CC3366',
			'#CC3399',
			'#CC33CC',
			'#CC33FF',
			'#CC6600',
			'#CC6633',
			'#CC9900',
			'#CC9933',
			'#CCCC00',
			'#CCCC33',
			'#FF0000',
			'#FF0033',
			'#FF0066',
			'#FF0099',
			'#FF00CC',
			'#FF00FF',
			'#FF3300',
			'#FF3333',
			'#FF3366',
			'#FF3399',
			'#FF33CC',
			'#FF33FF',
			'#FF6600',
			'#FF6633',
			'#FF9900',
			'#FF9933',
			'#FFCC00',
			'#FFCC33'
		];

		/**
		 * Currently only WebKit-based Web Inspectors, Firefox >= v31,
		 * and the Firebug extension (any Firefox version) are known
		 * to support "%c" CSS customizations.
		 *
		 * TODO: add a `localStorage` variable to explicitly enable/disable colors
		 */

		// eslint-disable-next-line complexity
		function useColors() {
			// NB: In an Electron preload script, document will be defined but not fully
			// initialized. Since we know we're in Chrome, we'll just detect this case
			// explicitly
			if (typeof window !== 'undefined' && window.process && (window.process.type === 'renderer' || window.process.__nwjs)) {
				return true;
			}

			// Internet Explorer and Edge do not support colors.
			if (typeof navigator !== 'undefined' && navigator.userAgent && navigator.userAgent.toLowerCase().match(/(edge|trident)\/(\d+)/)) {
				return false;
			}

			let m;

			// Is webkit? http://stackoverflow.com/a/16459606/376773
			// document is undefined in react-native: https://github.com/facebook/react-native/pull/1632
			// eslint-disable-next-line no-return-assign
			return (typeof document !== 'undefined' && document.documentElement && document.documentElement.style && document.documentElement.style.WebkitAppearance) ||
				// Is firebug? http://stackoverflow.com/a/398120/376773
				(typeof window !== 'undefined' && window.console && (window.console.firebug || (window.console.exception && window.console.table))) ||
				// Is firefox >= v31?
				// https://developer.mozilla.org/en-US/docs/Tools/Web_Console#Styling_messages
				(typeof navigator !== 'undefined' && navigator.userAgent && (m = navigator.userAgent.toLowerCase().match(/firefox\/(\d+)/)) && parseInt(m[1], 10) >= 31) ||
				// Double check webkit in userAgent just in case we are in a worker
				(typeof navigator !== 'undefined' && navigator.userAgent && navigator.userAgent.toLowerCase().match(/applewebkit\/(\d+)/));
		}

		/**
		 * Colorize log arguments if enabled.
		 *
		 * @api public
		 */

		function formatArgs(args) {
			args[0] = (this.useColors ? '%c' : '') +
				this.namespace +
				(this.useColors ? ' %c' : ' ') +
				args[0] +
				(this.useColors ? '%c ' : ' ') +
				'+' + module.exports.humanize(this.diff);

			if (!this.useColors) {
				return;
			}

			const c = 'color: ' + this.color;
			args.splice(1, 0, c, 'color: inherit');

			// The final "%c" is somewhat tricky, because there could be other
			// arguments passed either before or after the %c, so we need to
			// figure out the correct index to insert the CSS into
			let index = 0;
			let lastC = 0;
			args[0].replace(/%[a-zA-Z%]/g, match => {
				if (match === '%%') {
					return;
				}
				index++;
				if (match === '%c') {
					// We only are interested in the *last* %c
					// (the user may have provided their own)
					lastC = index;
				}
			});

			args.splice(lastC, 0, c);
		}

		/**
		 * Invokes `console.debug()` when available.
		 * No-op when `console.debug` is not a "function".
		 * If `console.debug` is not available, falls back
		 * to `console.log`.
		 *
		 * @api public
		 */
		exports.log = console.debug || console.log || (() => {});

		/**
		 * Save `namespaces`.
		 *
		 * @param {String} namespaces
		 * @api private
		 */
		function save(namespaces) {
			try {
				if (namespaces) {
					exports.storage.setItem('debug', namespaces);
				} else {
					exports.storage.removeItem('debug');
				}
			} catch (error) {
				// Swallow
				// XXX (@Qix-) should we be logging these?
			}
		}

		/**
		 * Load `namespaces`.
		 *
		 * @return {String} returns the previously persisted debug modes
		 * @api private
		 */
		function load() {
			let r;
			try {
				r = exports.storage.getItem('debug') || exports.storage.getItem('DEBUG') ;
			} catch (error) {
				// Swallow
				// XXX (@Qix-) should we be logging these?
			}

			// If debug isn't set in LS, and we're in Electron, try to load $DEBUG
			if (!r && typeof process !== 'undefined' && 'env' in process) {
				r = process.env.DEBUG;
			}

			return r;
		}

		/**
		 * Localstorage attempts to return the localstorage.
		 *
		 * This is necessary because safari throws
		 * when a user disables cookies/localstorage
		 * and you attempt to access it.
		 *
		 * @return {LocalStorage}
		 * @api private
		 */

		function localstorage() {
			try {
				// TVMLKit (Apple TV JS Runtime) does not have a window object, just localStorage in the global context
				// The Browser also has localStorage in the global context.
				return localStorage;
			} catch (error) {
				// Swallow
				// XXX (@Qix-) should we be logging these?
			}
		}

		module.exports = requireCommon()(exports);

		const {formatters} = module.exports;

		/**
		 * Map %j to `JSON.stringify()`, since no Web Inspectors do that by default.
		 */

		formatters.j = function (v) {
			try {
				return JSON.stringify(v);
			} catch (error) {
				return '[UnexpectedJSONParseError]: ' + error.message;
			}
		}; 
	} (browser, browser.exports));
	return browser.exports;
}

var node = {exports: {}};

var hasFlag;
var hasRequiredHasFlag;

function requireHasFlag () {
	if (hasRequiredHasFlag) return hasFlag;
	hasRequiredHasFlag = 1;

	hasFlag = (flag, argv = process.argv) => {
		const prefix = flag.startsWith('-') ? '' : (flag.length === 1 ? '-' : '--');
		const position = argv.indexOf(prefix + flag);
		const terminatorPosition = argv.indexOf('--');
		return position !== -1 && (terminatorPosition === -1 || position < terminatorPosition);
	};
	return hasFlag;
}

var supportsColor_1;
var hasRequiredSupportsColor;

function requireSupportsColor () {
	if (hasRequiredSupportsColor) return supportsColor_1;
	hasRequiredSupportsColor = 1;
	const os = os__default;
	const tty = require$$1;
	const hasFlag = requireHasFlag();

	const {env} = process;

	let forceColor;
	if (hasFlag('no-color') ||
		hasFlag('no-colors') ||
		hasFlag('color=false') ||
		hasFlag('color=never')) {
		forceColor = 0;
	} else if (hasFlag('color') ||
		hasFlag('colors') ||
		hasFlag('color=true') ||
		hasFlag('color=always')) {
		forceColor = 1;
	}

	if ('FORCE_COLOR' in env) {
		if (env.FORCE_COLOR === 'true') {
			forceColor = 1;
		} else if (env.FORCE_COLOR === 'false') {
			forceColor = 0;
		} else {
			forceColor = env.FORCE_COLOR.length === 0 ? 1 : Math.min(parseInt(env.FORCE_COLOR, 10), 3);
		}
	}

	function translateLevel(level) {
		if (level === 0) {
			return false;
		}

		return {
			level,
			hasBasic: true,
			has256: level >= 2,
			has16m: level >= 3
		};
	}

	function supportsColor(haveStream, streamIsTTY) {
		if (forceColor === 0) {
			return 0;
		}

		if (hasFlag('color=16m') ||
			hasFlag('color=full') ||
			hasFlag('color=truecolor')) {
			return 3;
		}

		if (hasFlag('color=256')) {
			return 2;
		}

		if (haveStream && !streamIsTTY && forceColor === undefined) {
			return 0;
		}

		const min = forceColor || 0;

		if (env.TERM === 'dumb') {
			return min;
		}

		if (process.platform === 'win32') {
			// Windows 10 build 10586 is the first Windows release that supports 256 colors.
			// Windows 10 build 14931 is the first release that supports 16m/TrueColor.
			const osRelease = os.release().split('.');
			if (
				Number(osRelease[0]) >= 10 &&
				Number(osRelease[2]) >= 10586
			) {
				return Number(osRelease[2]) >= 14931 ? 3 : 2;
			}

			return 1;
		}

		if ('CI' in env) {
			if (['TRAVIS', 'CIRCLECI', 'APPVEYOR', 'GITLAB_CI', 'GITHUB_ACTIONS', 'BUILDKITE'].some(sign => sign in env) || env.CI_NAME === 'codeship') {
				return 1;
			}

			return min;
		}

		if ('TEAMCITY_VERSION' in env) {
			return /^(9\.(0*[1-9]\d*)\.|\d{2,}\.)/.test(env.TEAMCITY_VERSION) ? 1 : 0;
		}

		if (env.COLORTERM === 'truecolor') {
			return 3;
		}

		if ('TERM_PROGRAM' in env) {
			const version = parseInt((env.TERM_PROGRAM_VERSION || '').split('.')[0], 10);

			switch (env.TERM_PROGRAM) {
				case 'iTerm.app':
					return version >= 3 ? 3 : 2;
				case 'Apple_Terminal':
					return 2;
				// No default
			}
		}

		if (/-256(color)?$/i.test(env.TERM)) {
			return 2;
		}

		if (/^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(env.TERM)) {
			return 1;
		}

		if ('COLORTERM' in env) {
			return 1;
		}

		return min;
	}

	function getSupportLevel(stream) {
		const level = supportsColor(stream, stream && stream.isTTY);
		return translateLevel(level);
	}

	supportsColor_1 = {
		supportsColor: getSupportLevel,
		stdout: translateLevel(supportsColor(true, tty.isatty(1))),
		stderr: translateLevel(supportsColor(true, tty.isatty(2)))
	};
	return supportsColor_1;
}

/**
 * Module dependencies.
 */

var hasRequiredNode;

function requireNode () {
	if (hasRequiredNode) return node.exports;
	hasRequiredNode = 1;
	(function (module, exports) {
		const tty = require$$1;
		const util = require$$0;

		/**
		 * This is the Node.js implementation of `debug()`.
		 */

		exports.init = init;
		exports.log = log;
		exports.formatArgs = formatArgs;
		exports.save = save;
		exports.load = load;
		exports.useColors = useColors;
		exports.destroy = util.deprecate(
			() => {},
			'Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.'
		);

		/**
		 * Colors.
		 */

		exports.colors = [6, 2, 3, 4, 5, 1];

		try {
			// Optional dependency (as in, doesn't need to be installed, NOT like optionalDependencies in package.json)
			// eslint-disable-next-line import/no-extraneous-dependencies
			const supportsColor = requireSupportsColor();

			if (supportsColor && (supportsColor.stderr || supportsColor).level >= 2) {
				exports.colors = [
					20,
					21,
					26,
					27,
					32,
					33,
					38,
					39,
					40,
					41,
					42,
					43,
					44,
					45,
					56,
					57,
					62,
					63,
					68,
					69,
					74,
					75,
					76,
					77,
					78,
					79,
					80,
					81,
					92,
					93,
					98,
					99,
					112,
					113,
					128,
					129,
					134,
					135,
					148,
					149,
					160,
					161,
					162,
					163,
					164,
					165,
					166,
					167,
					168,
					169,
					170,
					171,
					172,
					173,
					178,
					179,
					184,
					185,
					196,
					197,
					198,
					199,
					200,
					201,
					202,
					203,
					204,
					205,
					206,
					207,
					208,
					209,
					214,
					215,
					220,
					221
				];
			}
		} catch (error) {
			// Swallow - we only care if `supports-color` is available; it doesn't have to be.
		}

		/**
		 * Build up the default `inspectOpts` object from the environment variables.
		 *
		 *   $ DEBUG_COLORS=no DEBUG_DEPTH=10 DEBUG_SHOW_HIDDEN=enabled node script.js
		 */

		exports.inspectOpts = Object.keys(process.env).filter(key => {
			return /^debug_/i.test(key);
		}).reduce((obj, key) => {
			// Camel-case
			const prop = key
				.substring(6)
				.toLowerCase()
				.replace(/_([a-z])/g, (_, k) => {
					return k.toUpperCase();
				});

			// Coerce string value into JS value
			let val = process.env[key];
			if (/^(yes|on|true|enabled)$/i.test(val)) {
				val = true;
			} else if (/^(no|off|false|disabled)$/i.test(val)) {
				val = false;
			} else if (val === 'null') {
				val = null;
			} else {
				val = Number(val);
			}

			obj[prop] = val;
			return obj;
		}, {});

		/**
		 * Is stdout a TTY? Colored output is enabled when `true`.
		 */

		function useColors() {
			return 'colors' in exports.inspectOpts ?
				Boolean(exports.inspectOpts.colors) :
				tty.isatty(process.stderr.fd);
		}

		/**
		 * Adds ANSI color escape codes if enabled.
		 *
		 * @api public
		 */

		function formatArgs(args) {
			const {namespace: name, useColors} = this;

			if (useColors) {
				const c = this.color;
				const colorCode = '\u001B[3' + (c < 8 ? c : '8;5;' + c);
				const prefix = `  ${colorCode};1m${name} \u001B[0m`;

				args[0] = prefix + args[0].split('\n').join('\n' + prefix);
				args.push(colorCode + 'm+' + module.exports.humanize(this.diff) + '\u001B[0m');
			} else {
				args[0] = getDate() + name + ' ' + args[0];
			}
		}

		function getDate() {
			if (exports.inspectOpts.hideDate) {
				return '';
			}
			return new Date().toISOString() + ' ';
		}

		/**
		 * Invokes `util.formatWithOptions()` with the specified arguments and writes to stderr.
		 */

		function log(...args) {
			return process.stderr.write(util.formatWithOptions(exports.inspectOpts, ...args) + '\n');
		}

		/**
		 * Save `namespaces`.
		 *
		 * @param {String} namespaces
		 * @api private
		 */
		function save(namespaces) {
			if (namespaces) {
				process.env.DEBUG = namespaces;
			} else {
				// If you set a process.env field to null or undefined, it gets cast to the
				// string 'null' or 'undefined'. Just delete instead.
				delete process.env.DEBUG;
			}
		}

		/**
		 * Load `namespaces`.
		 *
		 * @return {String} returns the previously persisted debug modes
		 * @api private
		 */

		function load() {
			return process.env.DEBUG;
		}

		/**
		 * Init logic for `debug` instances.
		 *
		 * Create a new `inspectOpts` object in case `useColors` is set
		 * differently for a particular `debug` instance.
		 */

		function init(debug) {
			debug.inspectOpts = {};

			const keys = Object.keys(exports.inspectOpts);
			for (let i = 0; i < keys.length; i++) {
				debug.inspectOpts[keys[i]] = exports.inspectOpts[keys[i]];
			}
		}

		module.exports = requireCommon()(exports);

		const {formatters} = module.exports;

		/**
		 * Map %o to `util.inspect()`, all on a single line.
		 */

		formatters.o = function (v) {
			this.inspectOpts.colors = this.useColors;
			return util.inspect(v, this.inspectOpts)
				.split('\n')
				.map(str => str.trim())
				.join(' ');
		};

		/**
		 * Map %O to `util.inspect()`, allowing multiple lines if needed.
		 */

		formatters.O = function (v) {
			this.inspectOpts.colors = this.useColors;
			return util.inspect(v, this.inspectOpts);
		}; 
	} (node, node.exports));
	return node.exports;
}

/**
 * Detect Electron renderer / nwjs process, which is node, but we should
 * treat as a browser.
 */

var hasRequiredSrc$1;

function requireSrc$1 () {
	if (hasRequiredSrc$1) return src$1.exports;
	hasRequiredSrc$1 = 1;
	if (typeof process === 'undefined' || process.type === 'renderer' || process.browser === true || process.__nwjs) {
		src$1.exports = requireBrowser();
	} else {
		src$1.exports = requireNode();
	}
	return src$1.exports;
}

var srcExports = requireSrc$1();
var createDebug = /*@__PURE__*/getDefaultExportFromCjs(srcExports);

const t = /* @__PURE__ */ new WeakMap();
function c$1(...n) {
  const e = new String(n);
  return t.set(e, n), e;
}
function r(n) {
  return n instanceof String && t.has(n);
}
function o(n) {
  return t.get(n) ?? [];
}

var dist$1 = {};

var src = {};

var hasRequiredSrc;

function requireSrc () {
	if (hasRequiredSrc) return src;
	hasRequiredSrc = 1;
	(function (exports) {
		var __importDefault = (src && src.__importDefault) || function (mod) {
		    return (mod && mod.__esModule) ? mod : { "default": mod };
		};
		Object.defineProperty(exports, "__esModule", { value: true });
		const fs_1 = fs__default;
		const debug_1 = __importDefault(requireSrc$1());
		const log = debug_1.default('@kwsites/file-exists');
		function check(path, isFile, isDirectory) {
		    log(`checking %s`, path);
		    try {
		        const stat = fs_1.statSync(path);
		        if (stat.isFile() && isFile) {
		            log(`[OK] path represents a file`);
		            return true;
		        }
		        if (stat.isDirectory() && isDirectory) {
		            log(`[OK] path represents a directory`);
		            return true;
		        }
		        log(`[FAIL] path represents something other than a file or directory`);
		        return false;
		    }
		    catch (e) {
		        if (e.code === 'ENOENT') {
		            log(`[FAIL] path is not accessible: %o`, e);
		            return false;
		        }
		        log(`[FATAL] %o`, e);
		        throw e;
		    }
		}
		/**
		 * Synchronous validation of a path existing either as a file or as a directory.
		 *
		 * @param {string} path The path to check
		 * @param {number} type One or both of the exported numeric constants
		 */
		function exists(path, type = exports.READABLE) {
		    return check(path, (type & exports.FILE) > 0, (type & exports.FOLDER) > 0);
		}
		exports.exists = exists;
		/**
		 * Constant representing a file
		 */
		exports.FILE = 1;
		/**
		 * Constant representing a folder
		 */
		exports.FOLDER = 2;
		/**
		 * Constant representing either a file or a folder
		 */
		exports.READABLE = exports.FILE + exports.FOLDER;
		
	} (src));
	return src;
}

var hasRequiredDist$1;

function requireDist$1 () {
	if (hasRequiredDist$1) return dist$1;
	hasRequiredDist$1 = 1;
	(function (exports) {
		function __export(m) {
		    for (var p in m) if (!exports.hasOwnProperty(p)) exports[p] = m[p];
		}
		Object.defineProperty(exports, "__esModule", { value: true });
		__export(requireSrc());
		
	} (dist$1));
	return dist$1;
}

var distExports$1 = requireDist$1();

var dist = {};

var hasRequiredDist;

function requireDist () {
	if (hasRequiredDist) return dist;
	hasRequiredDist = 1;
	Object.defineProperty(dist, "__esModule", { value: true });
	dist.createDeferred = dist.deferred = void 0;
	/**
	 * Creates a new `DeferredPromise`
	 *
	 * ```typescript
	 import {deferred} from '@kwsites/promise-deferred`;
	 ```
	 */
	function deferred() {
	    let done;
	    let fail;
	    let status = 'pending';
	    const promise = new Promise((_done, _fail) => {
	        done = _done;
	        fail = _fail;
	    });
	    return {
	        promise,
	        done(result) {
	            if (status === 'pending') {
	                status = 'resolved';
	                done(result);
	            }
	        },
	        fail(error) {
	            if (status === 'pending') {
	                status = 'rejected';
	                fail(error);
	            }
	        },
	        get fulfilled() {
	            return status !== 'pending';
	        },
	        get status() {
	            return status;
	        },
	    };
	}
	dist.deferred = deferred;
	/**
	 * Alias of the exported `deferred` function, to help consumers wanting to use `deferred` as the
	 * local variable name rather than the factory import name, without needing to rename on import.
	 *
	 * ```typescript
	 import {createDeferred} from '@kwsites/promise-deferred`;
	 ```
	 */
	dist.createDeferred = deferred;
	/**
	 * Default export allows use as:
	 *
	 * ```typescript
	 import deferred from '@kwsites/promise-deferred`;
	 ```
	 */
	dist.default = deferred;
	
	return dist;
}

var distExports = requireDist();

function* x$1(e, n) {
  const t = n === "global";
  for (const o of e)
    o.isGlobal === t && (yield o);
}
const P = /* @__PURE__ */ new Set([
  "--add",
  "--edit",
  "--remove-section",
  "--rename-section",
  "--replace-all",
  "--unset",
  "--unset-all",
  "-e"
]), S$1 = /* @__PURE__ */ new Set([
  "--get",
  "--get-all",
  "--get-color",
  "--get-colorbool",
  "--get-regexp",
  "--get-urlmatch",
  "--list",
  "-l"
]), E$1 = /* @__PURE__ */ new Set([
  "edit",
  "remove-section",
  "rename-section",
  "set",
  "unset"
]), F$1 = /* @__PURE__ */ new Set(["get", "get-color", "get-colorbool", "list"]);
function A$1(e, n) {
  for (const { name: o } of x$1(e, "task")) {
    if (P.has(o))
      return w(true, n);
    if (S$1.has(o))
      return w(false, n);
  }
  const t = n.at(0)?.toLowerCase();
  return t === void 0 ? null : E$1.has(t) ? w(true, n.slice(1)) : F$1.has(t) ? w(false, n.slice(1)) : n.length === 1 ? w(false, n) : w(true, n);
}
function w(e = false, n = []) {
  const t = n.at(0)?.toLowerCase();
  return t === void 0 ? null : {
    isWrite: e,
    isRead: !e,
    key: t,
    value: n.at(1)
  };
}
function O$1(e, n) {
  return n.isWrite && n.value !== void 0 ? { key: n.key, value: n.value, scope: e } : { key: n.key, scope: e };
}
function G$1(e) {
  const n = e?.indexOf("=") || -1;
  return !e || n < 0 ? null : {
    key: e.slice(0, n).trim().toLowerCase(),
    value: e.slice(n + 1)
  };
}
function M$1(e) {
  for (const { name: n } of x$1(e, "task"))
    switch (n) {
      case "--global":
        return "global";
      case "--system":
        return "system";
      case "--worktree":
        return "worktree";
      case "--local":
        return "local";
      case "--file":
      case "-f":
        return "file";
    }
  return "local";
}
function N$1({ name: e }) {
  if (e === "-c" || e === "--config")
    return "inline";
  if (e === "--config-env")
    return "env";
}
function* $$1(e) {
  for (const n of e) {
    const t = N$1(n), o = t && G$1(n.value);
    o && (yield {
      ...o,
      scope: t
    });
  }
}
function D(e, n, t) {
  const o = {
    read: [],
    write: [...$$1(n)]
  };
  return e === "config" && L$1(
    o,
    M$1(n),
    A$1(n, t)
  ), o;
}
function L$1(e, n, t) {
  if (t === null)
    return;
  const o = O$1(n, t);
  t.isWrite ? e.write.push(o) : e.read.push(o);
}
const C = {
  short: /* @__PURE__ */ new Map([
    ["c", true]
    //  -c <k=v>    set config key for this invocation
  ])
}, I$1 = {
  short: new Map([
    ["C", true],
    //  -C <path>   change working directory
    ["P", false],
    // -P          no pager (alias for --no-pager)
    ["h", false],
    // -h          help
    ["p", false],
    // -p          paginate
    ["v", false],
    // -v          version
    ...C.short.entries()
  ]),
  long: /* @__PURE__ */ new Set([
    "attr-source",
    "config-env",
    "exec-path",
    "git-dir",
    "list-cmds",
    "namespace",
    "super-prefix",
    "work-tree"
  ])
}, R$1 = {
  clone: {
    short: /* @__PURE__ */ new Map([
      ["b", true],
      // -b <branch>
      ["j", true],
      // -j <n>          parallel jobs
      ["l", false],
      // -l local
      ["n", false],
      // -n no-checkout
      ["o", true],
      // -o <name>       remote name
      ["q", false],
      // -q quiet
      ["s", false],
      // -s shared
      ["u", true]
      // -u <upload-pack>
    ]),
    long: /* @__PURE__ */ new Set(["branch", "config", "jobs", "origin", "upload-pack", "u", "template"])
  },
  commit: {
    short: /* @__PURE__ */ new Map([
      ["C", true],
      // -C <commit>  reuse message
      ["F", true],
      // -F <file>    read message from file
      ["c", true],
      // -c <commit>  reedit message
      ["m", true],
      // -m <msg>
      ["t", true]
      // -t <template>
    ]),
    long: /* @__PURE__ */ new Set(["file", "message", "reedit-message", "reuse-message", "template"])
  },
  config: {
    short: /* @__PURE__ */ new Map([
      ["e", false],
      // -e  open editor
      ["f", true],
      //  -f <file>
      ["l", false]
      // -l  list
    ]),
    long: /* @__PURE__ */ new Set(["blob", "comment", "default", "file", "type", "value"])
  },
  fetch: {
    short: /* @__PURE__ */ new Map(),
    long: /* @__PURE__ */ new Set(["upload-pack"])
  },
  init: {
    short: /* @__PURE__ */ new Map(),
    long: /* @__PURE__ */ new Set(["template"])
  },
  pull: {
    short: /* @__PURE__ */ new Map(),
    long: /* @__PURE__ */ new Set(["upload-pack"])
  },
  push: {
    short: /* @__PURE__ */ new Map(),
    long: /* @__PURE__ */ new Set(["exec", "receive-pack"])
  },
  rebase: {
    short: /* @__PURE__ */ new Map([
      ["X", true],
      // -X <option>   strategy option
      ["f", false],
      // -f force-rebase
      ["i", false],
      // -i interactive
      ["k", false],
      // -k keep-base
      ["m", false],
      // -m merge
      ["n", false],
      // -n no-stat
      ["q", false],
      // -q quiet
      ["r", false],
      // -r rebase-merges
      ["s", true],
      // -s <strategy>
      ["v", false],
      // -v verbose
      ["x", true]
      // -x <cmd>      exec
    ]),
    long: /* @__PURE__ */ new Set(["exec", "onto", "strategy", "strategy-option"])
  }
}, T = { short: /* @__PURE__ */ new Map(), long: /* @__PURE__ */ new Set() };
function B$1(e) {
  const n = R$1[e ?? ""] ?? T;
  return {
    short: new Map([...C.short.entries(), ...n.short.entries()]),
    long: n.long
  };
}
function b$1(e, n = I$1) {
  if (e.startsWith("--")) {
    const t = e.indexOf("=");
    if (t > 2)
      return [{ name: e.slice(0, t), value: e.slice(t + 1), needsNext: false }];
    const o = e.slice(2);
    return [{ name: e, needsNext: n.long.has(o) }];
  }
  if (e.length === 2) {
    const t = e.charAt(1), o = n.short.get(t);
    return [{ name: e, needsNext: o === true }];
  }
  return j$1(e, n.short);
}
function j$1(e, n) {
  const t = e.slice(1).split(""), o = [];
  for (let a = 0; a < t.length; a++) {
    const s = t[a], r = n.get(s);
    if (r === void 0)
      return [{ name: e, needsNext: false }];
    if (r) {
      const i = t.slice(a + 1).join("");
      if (i && ![...i].every((m) => n.has(m)))
        return o.push({ name: `-${s}`, value: i, needsNext: false }), o;
    }
    o.push({ name: `-${s}`, needsNext: r });
  }
  return o;
}
function W$1(e, n = []) {
  let t = 0;
  for (; t < e.length; ) {
    const o = String(e[t]);
    if (!o.startsWith("-") || o.length < 2) break;
    const a = b$1(o);
    let s = t + 1;
    for (const r of a) {
      const i = {
        name: r.name,
        value: r.value,
        absorbedNext: false,
        isGlobal: true
      };
      r.needsNext && i.value === void 0 && s < e.length && (i.value = String(e[s]), i.absorbedNext = true, s++), n.push(i);
    }
    t = s;
  }
  return { flags: n, taskIndex: t };
}
function V$1(e, n, t = []) {
  const o$1 = B$1(n), a = [], s = [];
  let r$1 = 0;
  for (; r$1 < e.length; ) {
    const i = e[r$1];
    if (r(i)) {
      s.push(...o(i)), r$1++;
      continue;
    }
    const p = String(i);
    if (p === "--") {
      for (let d = r$1 + 1; d < e.length; d++) {
        const g = e[d];
        r(g) ? s.push(...o(g)) : s.push(String(g));
      }
      break;
    }
    if (!p.startsWith("-") || p.length < 2) {
      a.push(p), r$1++;
      continue;
    }
    const m = b$1(p, o$1);
    let u = r$1 + 1;
    for (const d of m) {
      const g = {
        name: d.name,
        value: d.value,
        absorbedNext: false,
        isGlobal: false
      };
      d.needsNext && g.value === void 0 && u < e.length && !r(e[u]) && (g.value = String(e[u]), g.absorbedNext = true, u++), t.push(g);
    }
    r$1 = u;
  }
  return { flags: t, positionals: a, pathspecs: s };
}
function* q$1({
  write: e
}) {
  for (const n of e)
    for (const t of K$1) {
      const o = t(n.key);
      o && (yield o);
    }
}
function f$1(e, n, t = String(e)) {
  const o = typeof e == "string" ? new RegExp(`\\s*${e.toLowerCase()}`) : e;
  return function(s) {
    if (o.test(s))
      return {
        category: n,
        message: `Configuring ${t} is not permitted without enabling ${n}`
      };
  };
}
function l$1(e, n) {
  const t = new RegExp(`\\s*${e.toLowerCase().replace(/\./g, "(..+)?.")}`);
  return f$1(t, n, e);
}
const K$1 = [
  f$1("alias", "allowUnsafeAlias"),
  f$1("core.askPass", "allowUnsafeAskPass"),
  f$1("core.editor", "allowUnsafeEditor"),
  f$1("core.fsmonitor", "allowUnsafeFsMonitor"),
  f$1("core.gitProxy", "allowUnsafeGitProxy"),
  f$1("core.hooksPath", "allowUnsafeHooksPath"),
  f$1("core.pager", "allowUnsafePager"),
  f$1("core.sshCommand", "allowUnsafeSshCommand"),
  l$1("credential.helper", "allowUnsafeCredentialHelper"),
  l$1("diff.command", "allowUnsafeDiffExternal"),
  f$1("diff.external", "allowUnsafeDiffExternal"),
  l$1("difftool.cmd", "allowUnsafeDiffExternal"),
  l$1("diff.textconv", "allowUnsafeDiffTextConv"),
  l$1("filter.clean", "allowUnsafeFilter"),
  l$1("filter.process", "allowUnsafeFilter"),
  l$1("filter.smudge", "allowUnsafeFilter"),
  l$1("gpg.program", "allowUnsafeGpgProgram"),
  f$1("include.path", "allowUnsafeInclude"),
  l$1("includeIf", "allowUnsafeInclude"),
  f$1("init.templateDir", "allowUnsafeTemplateDir"),
  l$1("pager.", "allowUnsafePager"),
  l$1("merge.driver", "allowUnsafeMergeDriver"),
  l$1("mergetool.path", "allowUnsafeMergeDriver"),
  l$1("mergetool.cmd", "allowUnsafeMergeDriver"),
  l$1("protocol.allow", "allowUnsafeProtocolOverride"),
  l$1("remote.receivepack", "allowUnsafePack"),
  l$1("remote.uploadpack", "allowUnsafePack"),
  f$1("uploadpack.packObjectsHook", "allowUnsafePack"),
  f$1("sequence.editor", "allowUnsafeEditor"),
  l$1("submodule.update", "allowUnsafeSubmodule"),
  l$1("tar.command", "allowUnsafeCommandBinaries"),
  l$1("trailer.cmd", "allowUnsafeCommandBinaries"),
  l$1("trailer.command", "allowUnsafeCommandBinaries"),
  l$1("url.insteadOf", "allowUnsafeUrlRewrite")
];
function* H$1(e, n) {
  for (const t of n)
    for (const o of X$1) {
      const a = o(e, t);
      a && (yield a);
    }
}
function c(e, n, t, { name: o = String(n), globalOnly: a = false, withValue: s = false } = {}) {
  const r = typeof n == "string" ? new RegExp(`\\s*${n.toLowerCase()}`) : n, i = `Use of ${e ? `${e} with option ` : ""}${o} is not permitted without enabling ${t}`;
  return function(m, u) {
    if (!(e && m !== e) && !(a && !u.isGlobal) && !(s && u.value === void 0) && r.test(u.name))
      return {
        category: t,
        message: i
      };
  };
}
const h$1 = { globalOnly: true, withValue: true }, X$1 = [
  c(null, /--(upload|receive)-pack/, "allowUnsafePack", {
    name: "--upload-pack or --receive-pack"
  }),
  c("clone", /^-\w*u/, "allowUnsafePack"),
  c("clone", "--u", "allowUnsafePack"),
  c("push", /^--exec$/, "allowUnsafePack", { name: "--exec" }),
  // `git` accepts unambiguous abbreviations of long options, so `--ex` and `--exe` are `--exec`
  c("rebase", /^(-x|--ex(ec?)?)$/, "allowUnsafeExec", { name: "-x or --exec" }),
  c(null, "--template", "allowUnsafeTemplateDir"),
  c(null, "--exec-path", "allowUnsafeExec", h$1),
  // `git` reads the configuration of whichever repository these name, so the
  // directory alone is enough to deliver config the argv guards never see
  c(null, "--git-dir", "allowUnsafeConfigPaths", h$1),
  c(null, "--work-tree", "allowUnsafeConfigPaths", h$1),
  c(null, /^-C$/, "allowUnsafeConfigPaths", { ...h$1, name: "-C" })
];
function k(e, n, t) {
  return [...H$1(e, n), ...q$1(t)];
}
function Y$1(...e) {
  const { flags: n, taskIndex: t } = W$1(e), o = t < e.length ? String(e[t]).toLowerCase() : null, a = o !== null ? e.slice(t + 1) : [], { positionals: s, pathspecs: r } = V$1(a, o, n), i = D(o, n, s);
  return {
    task: o,
    flags: n.map(J$1),
    paths: r,
    config: i,
    vulnerabilities: z$1(k(o, n, i))
  };
}
function z$1(e) {
  return Object.defineProperty(e, "vulnerabilities", {
    value: e
  });
}
function J$1({ value: e, name: n }) {
  return e !== void 0 ? { name: n, value: e } : { name: n };
}
const y = {
  editor: "allowUnsafeEditor",
  git_askpass: "allowUnsafeAskPass",
  git_config_global: "allowUnsafeConfigPaths",
  git_config_system: "allowUnsafeConfigPaths",
  git_config_count: "allowUnsafeConfigEnvCount",
  git_config_parameters: "allowUnsafeConfigEnvCount",
  git_config: "allowUnsafeConfigPaths",
  git_editor: "allowUnsafeEditor",
  git_exec_path: "allowUnsafeExec",
  git_external_diff: "allowUnsafeDiffExternal",
  git_pager: "allowUnsafePager",
  git_proxy_command: "allowUnsafeGitProxy",
  git_template_dir: "allowUnsafeTemplateDir",
  git_sequence_editor: "allowUnsafeEditor",
  git_ssh: "allowUnsafeSshCommand",
  git_ssh_command: "allowUnsafeSshCommand",
  pager: "allowUnsafePager",
  prefix: "allowUnsafeConfigPaths",
  ssh_askpass: "allowUnsafeAskPass",
  visual: "allowUnsafeEditor"
};
function* Q$1(e) {
  const n = parseInt(e.git_config_count ?? "0", 10);
  for (let t = 0; t < n; t++) {
    const o = e[`git_config_key_${t}`], a = e[`git_config_value_${t}`];
    o !== void 0 && (yield { key: o.toLowerCase().trim(), value: a, scope: "env" });
  }
}
function* Z$1(e) {
  for (const n of Object.keys(e))
    if (_$1(n)) {
      const t = y[n];
      yield {
        category: t,
        message: `Use of "${n.toUpperCase()}" is not permitted without enabling ${t}`
      };
    }
}
function _$1(e) {
  return Object.hasOwn(y, e);
}
function ee$1(e) {
  const n = {};
  for (const [t, o] of Object.entries(e)) {
    const a = t.toLowerCase().trim();
    (_$1(a) || a.startsWith("git")) && (n[a] = String(o));
  }
  return n;
}
function ne$1(e) {
  const n = ee$1(e), t = {
    read: [],
    write: [...Q$1(n)]
  }, o = [
    ...Z$1(n),
    ...k(null, [], t)
  ];
  return {
    config: t,
    vulnerabilities: o
  };
}
function oe$1(e, n) {
  return [...Y$1(...e).vulnerabilities, ...ne$1(n).vulnerabilities];
}

class O extends Error {
  constructor(e, n) {
    super(n), this.task = e, Object.setPrototypeOf(this, new.target.prototype);
  }
}
class Ae extends O {
  constructor(e, n) {
    super(void 0, n), this.config = e;
  }
}
class A extends O {
  constructor(e, n, r) {
    super(e, r), this.task = e, this.plugin = n, Object.setPrototypeOf(this, new.target.prototype);
  }
}
class at extends O {
  constructor(e, n) {
    super(void 0, n || String(e)), this.git = e;
  }
}
class xe extends O {
  constructor(e) {
    super(void 0, e);
  }
}
const I = "\0", W = () => {
};
function Ne(t) {
  return typeof t != "function" ? W : t;
}
function $e(t) {
  return typeof t == "function" && t !== W;
}
function Pe(t, e) {
  const n = t.indexOf(e);
  return n <= 0 ? [t, ""] : [t.substr(0, n), t.substr(n + 1)];
}
function Me(t, e = 0) {
  return Dt(t) && t.length > e ? t[e] : void 0;
}
function N(t, e = 0) {
  if (Dt(t) && t.length > e)
    return t[t.length - 1 - e];
}
function Dt(t) {
  return Bt(t);
}
function H(t = "", e = true, n = `
`) {
  return t.split(n).reduce((r, s) => {
    const o = e ? s.trim() : s;
    return o && r.push(o), r;
  }, []);
}
function ut(t, e) {
  return H(t, true).map((n) => e(n));
}
function Lt(t) {
  return distExports$1.exists(t, distExports$1.FOLDER);
}
function S(t, e) {
  return Array.isArray(t) ? t.includes(e) || t.push(e) : t.add(e), e;
}
function De(t, e) {
  return Array.isArray(t) && !t.includes(e) && t.push(e), t;
}
function ct(t, e) {
  if (Array.isArray(t)) {
    const n = t.indexOf(e);
    n >= 0 && t.splice(n, 1);
  } else
    t.delete(e);
  return e;
}
const ft = Object.prototype.toString.call.bind(Object.prototype.toString);
function v(t) {
  return Array.isArray(t) ? t : [t];
}
function jt(t) {
  return t.replace(/[\s-]+(.)/g, (e, n) => n.toUpperCase());
}
function L(t) {
  return v(t).map((e) => e instanceof String ? e : String(e));
}
function p(t, e = 0) {
  if (t == null)
    return e;
  const n = parseInt(t, 10);
  return Number.isNaN(n) ? e : n;
}
function U(t, e) {
  const n = [];
  for (let r = 0, s = t.length; r < s; r++)
    n.push(e, t[r]);
  return n;
}
function F(t) {
  return (Array.isArray(t) ? Buffer.concat(t) : t).toString("utf-8");
}
function Le(t) {
  return t ? Buffer.isBuffer(t) ? t.length : Buffer.byteLength(t) : 0;
}
function je(t, e) {
  const n = {};
  return e.forEach((r) => {
    t[r] !== void 0 && (n[r] = t[r]);
  }), n;
}
function wt(t = 0) {
  return new Promise((e) => setTimeout(e, t));
}
function bt(t) {
  if (t !== false)
    return t;
}
function d(t, e, n) {
  return e(t) ? t : arguments.length > 2 ? n : void 0;
}
const K = (t) => Array.isArray(t);
function st(t, e) {
  const n = r(t) ? "string" : typeof t;
  return /number|string|boolean/.test(n) && (!e || !e.includes(n));
}
const m = (t) => typeof t == "string" || r(t), Be = (t) => m(t) || Buffer.isBuffer(t), G = (t) => m(t) || Array.isArray(t) && t.every(m);
function lt(t) {
  return !!t && ft(t) === "[object Object]";
}
function Ie(t) {
  return typeof t == "function";
}
const Bt = (t) => t == null || "number|boolean|function".includes(typeof t) ? false : typeof t.length == "number";
var V = /* @__PURE__ */ ((t) => (t[t.SUCCESS = 0] = "SUCCESS", t[t.ERROR = 1] = "ERROR", t[t.NOT_FOUND = -2] = "NOT_FOUND", t[t.UNCLEAN = 128] = "UNCLEAN", t))(V || {});
class z {
  constructor(e, n) {
    this.stdOut = e, this.stdErr = n;
  }
  asStrings() {
    return new z(this.stdOut.toString("utf8"), this.stdErr.toString("utf8"));
  }
}
function Ue() {
  throw new Error("LineParser:useMatches not implemented");
}
class l {
  constructor(e, n) {
    this.matches = [], this.useMatches = Ue, this.parse = (r, s) => (this.resetMatches(), this._regExp.every((o, i) => this.addMatch(o, i, r(i))) ? this.useMatches(s, this.prepareMatches()) !== false : false), this._regExp = Array.isArray(e) ? e : [e], n && (this.useMatches = n);
  }
  resetMatches() {
    this.matches.length = 0;
  }
  prepareMatches() {
    return this.matches;
  }
  addMatch(e, n, r) {
    const s = r && e.exec(r);
    return s && this.pushMatch(n, s), !!s;
  }
  pushMatch(e, n) {
    this.matches.push(...n.slice(1));
  }
}
class x extends l {
  addMatch(e, n, r) {
    return /^remote:\s/.test(String(r)) && super.addMatch(e, n, r);
  }
  pushMatch(e, n) {
    (e > 0 || n.length > 1) && super.pushMatch(e, n);
  }
}
const Fe = {
  binary: "git",
  maxConcurrentProcesses: 5,
  config: [],
  trimmed: false
};
function Ge(...t) {
  const e = process.cwd(), n = Object.assign(
    { baseDir: e, ...Fe },
    ...t.filter((r) => typeof r == "object" && r)
  );
  return n.baseDir = n.baseDir || e, n.trimmed = n.trimmed === true, n;
}
function It(t, e = []) {
  return lt(t) ? Object.keys(t).reduce((n, r$1) => {
    const s = t[r$1];
    if (r(s))
      n.push(s);
    else if (st(s, ["boolean"]))
      n.push(r$1 + "=" + s);
    else if (Array.isArray(s))
      for (const o of s)
        st(o, ["string", "number"]) || n.push(r$1 + "=" + o);
    else
      n.push(r$1);
    return n;
  }, e) : e;
}
function h(t, e = 0, n = false) {
  const r = [];
  for (let s = 0, o = e < 0 ? t.length : e; s < o; s++)
    "string|number".includes(typeof t[s]) && r.push(String(t[s]));
  return It(ht(t), r), n || r.push(...ze(t)), r;
}
function ze(t) {
  const e = typeof N(t) == "function";
  return L(d(N(t, e ? 1 : 0), K, []));
}
function ht(t) {
  const e = Ie(N(t));
  return d(N(t, e ? 1 : 0), lt);
}
function u(t, e = true) {
  const n = Ne(N(t));
  return e || $e(n) ? n : void 0;
}
function Tt(t, e) {
  return t(e.stdOut, e.stdErr);
}
function E(t, e, n, r = true) {
  return v(n).forEach((s) => {
    for (let o = H(s, r), i = 0, a = o.length; i < a; i++) {
      const c = (y = 0) => {
        if (!(i + y >= a))
          return o[i + y];
      };
      e.some(({ parse: y }) => y(c, t));
    }
  }), t;
}
const mt = ({ exitCode: t }, e, n, r) => {
  if (t === V.UNCLEAN && Ve(e))
    return n(Buffer.from("false"));
  r(e);
}, Ut = (t) => t.trim() === "true";
function We(t) {
  switch (t) {
    case "bare":
      return Ke();
    case "root":
      return He();
  }
  return {
    commands: ["rev-parse", "--is-inside-work-tree"],
    format: "utf-8",
    onError: mt,
    parser: Ut
  };
}
function He() {
  return {
    commands: ["rev-parse", "--git-dir"],
    format: "utf-8",
    onError: mt,
    parser(e) {
      return /^\.(git)?$/.test(e.trim());
    }
  };
}
function Ke() {
  return {
    commands: ["rev-parse", "--is-bare-repository"],
    format: "utf-8",
    onError: mt,
    parser: Ut
  };
}
function Ve(t) {
  return /(Not a git repository|Kein Git-Repository)/i.test(String(t));
}
class Xe {
  constructor(e) {
    this.paths = [], this.files = [], this.folders = [], this.dryRun = e;
  }
}
const Ye = /^[a-z]+\s*/i, Qe = /^[a-z]+\s+[a-z]+\s*/i, Je = /\/$/;
function Ze(t, e) {
  const n = new Xe(t), r = t ? Qe : Ye;
  return H(e).forEach((s) => {
    const o = s.replace(r, "");
    n.paths.push(o), (Je.test(o) ? n.folders : n.files).push(o);
  }), n;
}
const Ft = [];
function tn(t) {
  return {
    commands: Ft,
    format: "empty",
    parser: t
  };
}
function b(t) {
  return {
    commands: Ft,
    format: "empty",
    parser() {
      throw typeof t == "string" ? new xe(t) : t;
    }
  };
}
function g(t, e = false) {
  return {
    commands: t,
    format: "utf-8",
    parser(n) {
      return e ? String(n).trim() : n;
    }
  };
}
function Gt(t) {
  return {
    commands: t,
    format: "buffer",
    parser(e) {
      return e;
    }
  };
}
function en(t) {
  return t.format === "buffer";
}
function kt(t) {
  return t.format === "empty" || !t.commands.length;
}
const nn = "Git clean interactive mode is not supported", rn = 'Git clean mode parameter ("n" or "f") is required', sn = "Git clean unknown option found in: ";
var zt = /* @__PURE__ */ ((t) => (t.DRY_RUN = "n", t.FORCE = "f", t.IGNORED_INCLUDED = "x", t.IGNORED_ONLY = "X", t.EXCLUDING = "e", t.QUIET = "q", t.RECURSIVE = "d", t))(zt || {});
const qt = /* @__PURE__ */ new Set([
  "i",
  ...L(Object.values(zt))
]);
function on(t, e) {
  const { cleanMode: n, options: r, valid: s } = cn(t);
  return n ? s.options ? (r.push(...e), r.some(hn) ? b(nn) : an(n, r)) : b(sn + JSON.stringify(t)) : b(rn);
}
function an(t, e) {
  return {
    commands: ["clean", `-${t}`, ...e],
    format: "utf-8",
    parser(r) {
      return Ze(t === "n", r);
    }
  };
}
function un(t) {
  return Array.isArray(t) && t.every((e) => qt.has(e));
}
function cn(t) {
  let e, n = [], r = { cleanMode: false, options: true };
  return t.replace(/[^a-z]i/g, "").split("").forEach((s) => {
    fn(s) ? (e = s, r.cleanMode = true) : r.options = r.options && ln(n[n.length] = `-${s}`);
  }), {
    cleanMode: e,
    options: n,
    valid: r
  };
}
function fn(t) {
  return t === "f" || t === "n";
}
function ln(t) {
  return /^-[a-z]$/i.test(t) && qt.has(t.charAt(1));
}
function hn(t) {
  return /^-[^\-]/.test(t) ? t.indexOf("i") > 0 : t === "--interactive";
}
class mn {
  constructor() {
    this.files = [], this.values = /* @__PURE__ */ Object.create(null);
  }
  get all() {
    return this._all || (this._all = this.files.reduce((e, n) => Object.assign(e, this.values[n]), {})), this._all;
  }
  addFile(e) {
    if (!(e in this.values)) {
      const n = N(this.files);
      this.values[e] = n ? Object.create(this.values[n]) : {}, this.files.push(e);
    }
    return this.values[e];
  }
  addValue(e, n, r) {
    const s = this.addFile(e);
    Object.hasOwn(s, n) ? Array.isArray(s[n]) ? s[n].push(r) : s[n] = [s[n], r] : s[n] = r, this._all = void 0;
  }
}
function pn(t) {
  const e = new mn();
  for (const n of Wt(t))
    e.addValue(n.file, String(n.key), n.value);
  return e;
}
function dn(t, e) {
  let n = null;
  const r = [], s = /* @__PURE__ */ new Map();
  for (const o of Wt(t, e))
    o.key === e && (r.push(n = o.value), s.has(o.file) || s.set(o.file, []), s.get(o.file).push(n));
  return {
    key: e,
    paths: Array.from(s.keys()),
    scopes: s,
    value: n,
    values: r
  };
}
function gn(t) {
  return t.replace(/^(file):/, "");
}
function* Wt(t, e = null) {
  const n = t.split("\0");
  for (let r = 0, s = n.length - 1; r < s; ) {
    const o = gn(n[r++]);
    let i = n[r++], a = e;
    if (i.includes(`
`)) {
      const c = Pe(i, `
`);
      a = c[0], i = c[1];
    }
    yield { file: o, key: a, value: i };
  }
}
var Ht = /* @__PURE__ */ ((t) => (t.system = "system", t.global = "global", t.local = "local", t.worktree = "worktree", t))(Ht || {});
function Y(t, e) {
  return typeof t == "string" && Object.hasOwn(Ht, t) ? t : e;
}
function yn(t, e, n, r) {
  const s = ["config", `--${r}`];
  return n && s.push("--add"), s.push(t, e), {
    commands: s,
    format: "utf-8",
    parser(o) {
      return o;
    }
  };
}
function wn(t, e) {
  const n = ["config", "--null", "--show-origin", "--get-all", t];
  return e && n.splice(1, 0, `--${e}`), {
    commands: n,
    format: "utf-8",
    parser(r) {
      return dn(r, t);
    }
  };
}
function bn(t) {
  const e = ["config", "--list", "--show-origin", "--null"];
  return t && e.push(`--${t}`), {
    commands: e,
    format: "utf-8",
    parser(n) {
      return pn(n);
    }
  };
}
function Tn() {
  return {
    addConfig(t, e, ...n) {
      return this._runTask(
        yn(
          t,
          e,
          n[0] === true,
          Y(
            n[1],
            "local"
            /* local */
          )
        ),
        u(arguments)
      );
    },
    getConfig(t, e) {
      return this._runTask(
        wn(t, Y(e, void 0)),
        u(arguments)
      );
    },
    listConfig(...t) {
      return this._runTask(
        bn(Y(t[0], void 0)),
        u(arguments)
      );
    }
  };
}
var Kt = /* @__PURE__ */ ((t) => (t.ADDED = "A", t.COPIED = "C", t.DELETED = "D", t.MODIFIED = "M", t.RENAMED = "R", t.CHANGED = "T", t.UNMERGED = "U", t.UNKNOWN = "X", t.BROKEN = "B", t))(Kt || {});
const kn = new Set(Object.values(Kt));
function _n(t) {
  return kn.has(t);
}
var _t;
const vn = ["-h"], j = /* @__PURE__ */ Symbol("grepQuery");
class En {
  constructor() {
    this[_t] = [];
  }
  *[(_t = j, Symbol.iterator)]() {
    for (const e of this[j])
      yield e;
  }
  and(...e) {
    return e.length && this[j].push("--and", "(", ...U(e, "-e"), ")"), this;
  }
  param(...e) {
    return this[j].push(...U(e, "-e")), this;
  }
}
function Sn(...t) {
  return new En().param(...t);
}
function Rn(t) {
  const e = /* @__PURE__ */ new Set(), n = {};
  return ut(t, (r) => {
    const [s, o, i] = r.split(I);
    e.add(s), (n[s] = n[s] || []).push({
      line: p(o),
      path: s,
      preview: i
    });
  }), {
    paths: e,
    results: n
  };
}
function On() {
  return {
    grep(t) {
      const e = u(arguments), n = h(arguments);
      for (const s of vn)
        if (n.includes(s))
          return this._runTask(
            b(`git.grep: use of "${s}" is not supported.`),
            e
          );
      typeof t == "string" && (t = Sn().param(t));
      const r = ["grep", "--null", "-n", "--full-name", ...n, ...t];
      return this._runTask(
        {
          commands: r,
          format: "utf-8",
          parser(s) {
            return Rn(s);
          }
        },
        e
      );
    }
  };
}
var Vt = /* @__PURE__ */ ((t) => (t.MIXED = "mixed", t.SOFT = "soft", t.HARD = "hard", t.MERGE = "merge", t.KEEP = "keep", t))(Vt || {});
const Cn = L(Object.values(Vt));
function An(t, e) {
  const n = ["reset"];
  return Xt(t) && n.push(`--${t}`), n.push(...e), g(n);
}
function xn(t) {
  if (Xt(t))
    return t;
  switch (typeof t) {
    case "string":
    case "undefined":
      return "soft";
  }
}
function Xt(t) {
  return typeof t == "string" && Cn.includes(t);
}
createDebug.formatters.L = (t) => String(Bt(t) ? t.length : "-");
createDebug.formatters.B = (t) => Buffer.isBuffer(t) ? t.toString("utf8") : ft(t);
function Nn() {
  return createDebug("simple-git");
}
function vt(t, e, n) {
  return !e || !String(e).replace(/\s*/, "") ? n ? (r, ...s) => {
    t(r, ...s), n(r, ...s);
  } : t : (r, ...s) => {
    t(`%s ${r}`, e, ...s), n && n(r, ...s);
  };
}
function $n(t, e, { namespace: n }) {
  if (typeof t == "string")
    return t;
  const r = e && e.namespace || "";
  return r.startsWith(n) ? r.substr(n.length + 1) : r || n;
}
function $(t, e, n, r = Nn()) {
  const s = t && `[${t}]` || "", o = [], i = typeof e == "string" ? r.extend(e) : e, a = $n(d(e, m), i, r);
  return y(n);
  function c(w, T) {
    return S(
      o,
      $(t, a.replace(/^[^:]+/, w), T, r)
    );
  }
  function y(w) {
    const T = w && `[${w}]` || "", k = i && vt(i, T) || W, C = vt(r, `${s} ${T}`, k);
    return Object.assign(i ? k : C, {
      label: t,
      sibling: c,
      info: C,
      step: y
    });
  }
}
const M = class M {
  constructor(e = "GitExecutor") {
    this.logLabel = e, this._queue = /* @__PURE__ */ new Map();
  }
  withProgress(e) {
    return this._queue.get(e);
  }
  createProgress(e) {
    const n = M.getName(e.commands[0]), r = $(this.logLabel, n);
    return {
      task: e,
      logger: r,
      name: n
    };
  }
  push(e) {
    const n = this.createProgress(e);
    return n.logger("Adding task to the queue, commands = %o", e.commands), this._queue.set(e, n), n;
  }
  fatal(e) {
    for (const [n, { logger: r }] of Array.from(this._queue.entries()))
      n === e.task ? (r.info("Failed %o", e), r(
        "Fatal exception, any as-yet un-started tasks run through this executor will not be attempted"
      )) : r.info(
        "A fatal exception occurred in a previous task, the queue has been purged: %o",
        e.message
      ), this.complete(n);
    if (this._queue.size !== 0)
      throw new Error(`Queue size should be zero after fatal: ${this._queue.size}`);
  }
  complete(e) {
    this.withProgress(e) && this._queue.delete(e);
  }
  attempt(e) {
    const n = this.withProgress(e);
    if (!n)
      throw new O(void 0, "TasksPendingQueue: attempt called for an unknown task");
    return n.logger("Starting task"), n;
  }
  static getName(e = "empty") {
    return `task:${e}:${++M.counter}`;
  }
};
M.counter = 0;
let ot = M;
class Pn {
  constructor(e, n, r) {
    this._executor = e, this._scheduler = n, this._plugins = r, this._chain = Promise.resolve(), this._queue = new ot();
  }
  get cwd() {
    return this._cwd || this._executor.cwd;
  }
  set cwd(e) {
    this._cwd = e;
  }
  get env() {
    return this._executor.env;
  }
  get outputHandler() {
    return this._executor.outputHandler;
  }
  chain() {
    return this;
  }
  push(e) {
    return this._queue.push(e), this._chain = this._chain.then(() => this.attemptTask(e));
  }
  async attemptTask(e) {
    const n = await this._scheduler.next(), r = () => this._queue.complete(e);
    try {
      const { logger: s } = this._queue.attempt(e);
      return await (kt(e) ? this.attemptEmptyTask(e, s) : this.attemptRemoteTask(e, s));
    } catch (s) {
      throw this.onFatalException(e, s);
    } finally {
      r(), n();
    }
  }
  onFatalException(e, n) {
    const r = n instanceof O ? Object.assign(n, { task: e }) : new O(e, n && String(n));
    return this._chain = Promise.resolve(), this._queue.fatal(r), r;
  }
  async attemptRemoteTask(e, n) {
    const r = this._plugins.exec("spawn.binary", "", this.taskContext(e, e.commands)), s = this._plugins.exec(
      "spawn.args",
      [...e.commands],
      this.taskContext(e, e.commands)
    ), o = await this.gitResponse(
      e,
      r,
      s,
      this.outputHandler,
      n.step("SPAWN")
    ), i = await this.handleTaskData(e, s, o, n.step("HANDLE"));
    return n("passing response to task's parser as a %s", e.format), en(e) ? Tt(e.parser, i) : Tt(e.parser, i.asStrings());
  }
  async attemptEmptyTask(e, n) {
    return n("empty task bypassing child process to call to task's parser"), e.parser(this);
  }
  handleTaskData(e, n, r, s) {
    const { exitCode: o, rejection: i, stdOut: a, stdErr: c } = r;
    return new Promise((y, w) => {
      s("Preparing to handle process response exitCode=%d stdOut=", o);
      const { error: T } = this._plugins.exec(
        "task.error",
        { error: i },
        {
          ...this.taskContext(e, n),
          ...r
        }
      );
      if (T && e.onError)
        return s.info("exitCode=%s handling with custom error handler"), e.onError(
          r,
          T,
          (k) => {
            s.info("custom error handler treated as success"), s("custom error returned a %s", ft(k)), y(
              new z(
                Array.isArray(k) ? Buffer.concat(k) : k,
                Buffer.concat(c)
              )
            );
          },
          w
        );
      if (T)
        return s.info(
          "handling as error: exitCode=%s stdErr=%s rejection=%o",
          o,
          c.length,
          i
        ), w(T);
      s.info("retrieving task output complete"), y(new z(Buffer.concat(a), Buffer.concat(c)));
    });
  }
  async gitResponse(e, n, r, s, o) {
    const i = o.sibling("output"), a = this._plugins.exec(
      "spawn.options",
      {
        cwd: this.cwd,
        env: this.env,
        windowsHide: true
      },
      this.taskContext(e, e.commands)
    );
    return new Promise((c) => {
      const y = [], w = [];
      o.info("%s %o", n, r), o("%O", a);
      let T = this._beforeSpawn(e, r);
      if (T)
        return c({
          stdOut: y,
          stdErr: w,
          exitCode: 9901,
          rejection: T
        });
      this._plugins.exec("spawn.before", void 0, {
        ...this.taskContext(e, r),
        kill(C) {
          T = C || T;
        }
      });
      const k = spawn(n, r, a);
      k.stdout.on(
        "data",
        Et(y, "stdOut", o, i.step("stdOut"))
      ), k.stderr.on(
        "data",
        Et(w, "stdErr", o, i.step("stdErr"))
      ), k.on("error", Mn(w, o)), s && (o("Passing child process stdOut/stdErr to custom outputHandler"), s(n, k.stdout, k.stderr, [...r])), this._plugins.exec("spawn.after", void 0, {
        ...this.taskContext(e, r),
        spawned: k,
        close(C, Te) {
          c({
            stdOut: y,
            stdErr: w,
            exitCode: C,
            rejection: T || Te
          });
        },
        kill(C) {
          k.killed || (T = C, k.kill("SIGINT"));
        }
      });
    });
  }
  _beforeSpawn(e, n) {
    let r;
    return this._plugins.exec("spawn.before", void 0, {
      ...this.taskContext(e, n),
      kill(s) {
        r = s || r;
      }
    }), r;
  }
  taskContext(e, n) {
    return {
      method: String(Me(e.commands) || ""),
      commands: n,
      env: { ...this.env },
      input: kt(e) ? void 0 : e.input
    };
  }
}
function Mn(t, e) {
  return (n) => {
    e("[ERROR] child process exception %o", n), t.push(Buffer.from(String(n.stack), "ascii"));
  };
}
function Et(t, e, n, r) {
  return (s) => {
    n("%s received %L bytes", e, s), r("%B", s), t.push(s);
  };
}
class Dn {
  constructor(e, n, r) {
    this.cwd = e, this._scheduler = n, this._plugins = r, this._chain = this.chain();
  }
  chain() {
    return new Pn(this, this._scheduler, this._plugins);
  }
  push(e) {
    return this._chain.push(e);
  }
}
function Ln(t, e, n = W) {
  const r = (o) => {
    n(null, o);
  }, s = (o) => {
    o?.task === t && n(o, void 0);
  };
  e.then(r, s);
}
function St(t, e) {
  return tn((n) => {
    if (!Lt(t))
      throw new Error(`Git.cwd: cannot change to non-directory "${t}"`);
    return (e || n).cwd = t;
  });
}
function Q(t) {
  const e = ["checkout", ...t];
  return e[1] === "-b" && e.includes("-B") && (e[1] = ct(e, "-B")), g(e);
}
function jn() {
  return {
    checkout() {
      return this._runTask(
        Q(h(arguments, 1)),
        u(arguments)
      );
    },
    checkoutBranch(t, e) {
      return this._runTask(
        Q(["-b", t, e, ...h(arguments)]),
        u(arguments)
      );
    },
    checkoutLocalBranch(t) {
      return this._runTask(
        Q(["-b", t, ...h(arguments)]),
        u(arguments)
      );
    }
  };
}
const Yt = (t, e, n) => {
  const r = ["clone", ...n];
  return m(t) && r.push(c$1(t)), m(e) && r.push(c$1(e)), g(r);
}, Bn = (t, e, n) => (S(n, "--mirror"), Yt(t, e, n));
function Rt(t, e, n, ...r) {
  return m(n) ? e(n, d(r[0], m), h(arguments)) : b(`git.${t}() requires a string 'repoPath'`);
}
function In() {
  return {
    clone(t, ...e) {
      return this._runTask(
        Rt("clone", Yt, d(t, m), ...e),
        u(arguments)
      );
    },
    mirror(t, ...e) {
      return this._runTask(
        Rt("mirror", Bn, d(t, m), ...e),
        u(arguments)
      );
    }
  };
}
const Un = [
  new l(/^\[([^\s]+)( \([^)]+\))? ([^\]]+)/, (t, [e, n, r]) => {
    t.branch = e, t.commit = r, t.root = !!n;
  }),
  new l(/\s*Author:\s(.+)/i, (t, [e]) => {
    const n = e.split("<"), r = n.pop();
    !r || !r.includes("@") || (t.author = {
      email: r.substr(0, r.length - 1),
      name: n.join("<").trim()
    });
  }),
  new l(
    /(\d+)[^,]*(?:,\s*(\d+)[^,]*)(?:,\s*(\d+))/g,
    (t, [e, n, r]) => {
      t.summary.changes = parseInt(e, 10) || 0, t.summary.insertions = parseInt(n, 10) || 0, t.summary.deletions = parseInt(r, 10) || 0;
    }
  ),
  new l(
    /^(\d+)[^,]*(?:,\s*(\d+)[^(]+\(([+-]))?/,
    (t, [e, n, r]) => {
      t.summary.changes = parseInt(e, 10) || 0;
      const s = parseInt(n, 10) || 0;
      r === "-" ? t.summary.deletions = s : r === "+" && (t.summary.insertions = s);
    }
  )
];
function Fn(t) {
  return E({
    author: null,
    branch: "",
    commit: "",
    root: false,
    summary: {
      changes: 0,
      insertions: 0,
      deletions: 0
    }
  }, Un, t);
}
function Gn(t, e, n) {
  return {
    commands: [
      "-c",
      "core.abbrev=40",
      "commit",
      ...U(t, "-m"),
      ...e,
      ...n
    ],
    format: "utf-8",
    parser: Fn
  };
}
function zn() {
  return {
    commit(e, ...n) {
      const r = u(arguments), s = t(e) || Gn(
        v(e),
        v(d(n[0], G, [])),
        [
          ...L(d(n[1], K, [])),
          ...h(arguments, 0, true)
        ]
      );
      return this._runTask(s, r);
    }
  };
  function t(e) {
    return !G(e) && b(
      "git.commit: requires the commit message to be supplied as a string/string[]"
    );
  }
}
function qn() {
  return {
    count: 0,
    garbage: 0,
    inPack: 0,
    packs: 0,
    prunePackable: 0,
    size: 0,
    sizeGarbage: 0,
    sizePack: 0
  };
}
const Wn = new l(
  /([a-z-]+): (\d+)$/,
  (t, [e, n]) => {
    const r = jt(e);
    Object.hasOwn(t, r) && (t[r] = p(n));
  }
);
function Hn() {
  return {
    countObjects() {
      return this._runTask({
        commands: ["count-objects", "--verbose"],
        format: "utf-8",
        parser(t) {
          return E(qn(), [Wn], t);
        }
      });
    }
  };
}
function Kn() {
  return {
    firstCommit() {
      return this._runTask(
        g(["rev-list", "--max-parents=0", "HEAD"], true),
        u(arguments)
      );
    }
  };
}
function Vn(t, e) {
  const n = ["hash-object", t];
  return e && n.push("-w"), g(n, true);
}
class J {
  constructor(e, n, r, s) {
    this.bare = e, this.path = n, this.existing = r, this.gitDir = s;
  }
}
const Xn = /^Init.+ repository in (.+)$/, Yn = /^Rein.+ in (.+)$/;
function Qn(t, e, n) {
  const r = String(n).trim();
  let s;
  if (s = Xn.exec(r))
    return new J(t, e, false, s[1]);
  if (s = Yn.exec(r))
    return new J(t, e, true, s[1]);
  let o = "";
  const i = r.split(" ");
  for (; i.length; )
    if (i.shift() === "in") {
      o = i.join(" ");
      break;
    }
  return new J(t, e, /^re/i.test(r), o);
}
const Qt = "--bare";
function Jn(t) {
  return t.includes(Qt);
}
function Zn(t = false, e, n) {
  const r = ["init", ...n];
  return t && !Jn(r) && r.splice(1, 0, Qt), {
    commands: r,
    format: "utf-8",
    parser(s) {
      return Qn(r.includes("--bare"), e, s);
    }
  };
}
function tr(t) {
  return t === void 0 ? b("interpretTrailers called without input content") : {
    format: "utf-8",
    parser(e) {
      return Object.fromEntries(
        ut(e, (n) => {
          const r = n.indexOf(":");
          return [
            jt(n.substring(0, r).toLowerCase()),
            n.substring(r + 2).trim()
          ];
        })
      );
    },
    commands: ["interpret-trailers", "--parse"],
    input: t
  };
}
function er() {
  return {
    interpretTrailers(t) {
      return this._runTask(
        tr(d(t, Be)),
        u(arguments)
      );
    }
  };
}
var R = /* @__PURE__ */ ((t) => (t.NONE = "", t.STAT = "--stat", t.NUM_STAT = "--numstat", t.NAME_ONLY = "--name-only", t.NAME_STATUS = "--name-status", t))(R || {});
const Jt = /^--(stat|numstat|name-only|name-status)(=|$)/;
function pt(t) {
  for (let e = 0; e < t.length; e++) {
    const n = Jt.exec(t[e]);
    if (n)
      return `--${n[1]}`;
  }
  return "";
}
function nr(t) {
  return Jt.test(t);
}
class rr {
  constructor() {
    this.changed = 0, this.deletions = 0, this.insertions = 0, this.files = [];
  }
}
const Ot = [
  new l(
    /^(.+)\s+\|\s+(\d+)(\s+[+\-]+)?$/,
    (t, [e, n, r = ""]) => {
      t.files.push({
        file: e.trim(),
        changes: p(n),
        insertions: r.replace(/[^+]/g, "").length,
        deletions: r.replace(/[^-]/g, "").length,
        binary: false
      });
    }
  ),
  new l(
    /^(.+) \|\s+Bin ([0-9.]+) -> ([0-9.]+) ([a-z]+)/,
    (t, [e, n, r]) => {
      t.files.push({
        file: e.trim(),
        before: p(n),
        after: p(r),
        binary: true
      });
    }
  ),
  new l(/^(.+)\s+\|\s+Bin\s*$/, (t, [e]) => {
    t.files.push({
      file: e.trim(),
      before: 0,
      after: 0,
      binary: true
    });
  }),
  new l(
    /(\d+) files? changed\s*((?:, \d+ [^,]+){0,2})/,
    (t, [e, n]) => {
      const r = /(\d+) i/.exec(n), s = /(\d+) d/.exec(n);
      t.changed = p(e), t.insertions = p(r?.[1]), t.deletions = p(s?.[1]);
    }
  )
], sr = [
  new l(
    /(\d+)\t(\d+)\t(.+)$/,
    (t, [e, n, r]) => {
      const s = p(e), o = p(n);
      t.changed++, t.insertions += s, t.deletions += o, t.files.push({
        file: r,
        changes: s + o,
        insertions: s,
        deletions: o,
        binary: false
      });
    }
  ),
  new l(/-\t-\t(.+)$/, (t, [e]) => {
    t.changed++, t.files.push({
      file: e,
      after: 0,
      before: 0,
      binary: true
    });
  })
], or = [
  new l(/(.+)$/, (t, [e]) => {
    t.changed++, t.files.push({
      file: e,
      changes: 0,
      insertions: 0,
      deletions: 0,
      binary: false
    });
  })
], ir = [
  new l(
    /([ACDMRTUXB])([0-9]{0,3})\t(.[^\t]*)(\t(.[^\t]*))?$/,
    (t, [e, n, r, s, o]) => {
      t.changed++, t.files.push({
        file: o ?? r,
        changes: 0,
        insertions: 0,
        deletions: 0,
        binary: false,
        status: bt(_n(e) && e),
        from: bt(!!o && r !== o && r),
        similarity: p(n)
      });
    }
  )
], ar = {
  [R.NONE]: Ot,
  [R.STAT]: Ot,
  [R.NUM_STAT]: sr,
  [R.NAME_STATUS]: ir,
  [R.NAME_ONLY]: or
};
function Zt(t = R.NONE) {
  const e = ar[t];
  return (n) => E(new rr(), e, n, false);
}
const te = "òòòòòò ", ee = " òò", ne = " ò ", ur = ["hash", "date", "message", "refs", "author_name", "author_email"];
function cr(t, e) {
  return e.reduce(
    (n, r, s) => (n[r] = t[s] || "", n),
    /* @__PURE__ */ Object.create({ diff: null })
  );
}
function re(t = ne, e = ur, n = R.NONE) {
  const r = Zt(n);
  return function(s) {
    const o = H(
      s.trim(),
      false,
      te
    ).map(function(i) {
      const a = i.split(ee), c = cr(a[0].split(t), e);
      return a.length > 1 && a[1].trim() && (c.diff = r(a[1])), c;
    });
    return {
      all: o,
      latest: o.length && o[0] || null,
      total: o.length
    };
  };
}
function fr(t) {
  let e = pt(t);
  const n = ["diff"];
  return e === R.NONE && (e = R.STAT, n.push("--stat=4096")), n.push(...t), dt(n) || {
    commands: n,
    format: "utf-8",
    parser: Zt(e)
  };
}
function dt(t) {
  const e = t.filter(nr);
  if (e.length > 1)
    return b(
      `Summary flags are mutually exclusive - pick one of ${e.join(",")}`
    );
  if (e.length && t.includes("-z"))
    return b(
      `Summary flag ${e} parsing is not compatible with null termination option '-z'`
    );
}
var se = /* @__PURE__ */ ((t) => (t[t["--pretty"] = 0] = "--pretty", t[t["max-count"] = 1] = "max-count", t[t.maxCount = 2] = "maxCount", t[t.n = 3] = "n", t[t.file = 4] = "file", t[t.format = 5] = "format", t[t.from = 6] = "from", t[t.to = 7] = "to", t[t.splitter = 8] = "splitter", t[t.symmetric = 9] = "symmetric", t[t.mailMap = 10] = "mailMap", t[t.multiLine = 11] = "multiLine", t[t.strictDate = 12] = "strictDate", t))(se || {});
function lr(t, e) {
  const n = [], r = [];
  return Object.keys(t).forEach((s) => {
    n.push(s), r.push(String(t[s]));
  }), [n, r.join(e)];
}
function hr(t) {
  return Object.keys(t).reduce((e, n) => (n in se || (e[n] = t[n]), e), {});
}
function oe(t = {}, e = []) {
  const n = d(t.splitter, m, ne), r = lt(t.format) ? t.format : {
    hash: "%H",
    date: t.strictDate === false ? "%ai" : "%aI",
    message: "%s",
    refs: "%D",
    body: t.multiLine ? "%B" : "%b",
    author_name: t.mailMap !== false ? "%aN" : "%an",
    author_email: t.mailMap !== false ? "%aE" : "%ae"
  }, [s, o] = lr(r, n), i = [], a = [
    `--pretty=format:${te}${o}${ee}`,
    ...e
  ], c = t.n || t["max-count"] || t.maxCount;
  if (c && a.push(`--max-count=${c}`), t.from || t.to) {
    const y = t.symmetric !== false ? "..." : "..";
    i.push(`${t.from || ""}${y}${t.to || ""}`);
  }
  return m(t.file) && a.push("--follow", c$1(t.file)), It(hr(t), a), {
    fields: s,
    splitter: n,
    commands: [...a, ...i]
  };
}
function mr(t, e, n) {
  const r = re(t, e, pt(n));
  return {
    commands: ["log", ...n],
    format: "utf-8",
    parser: r
  };
}
function pr() {
  return {
    log(...n) {
      const r = u(arguments), s = oe(
        ht(arguments),
        L(d(arguments[0], K, []))
      ), o = e(...n) || dt(s.commands) || t(s);
      return this._runTask(o, r);
    }
  };
  function t(n) {
    return mr(n.splitter, n.fields, n.commands);
  }
  function e(n, r) {
    return m(n) && m(r) && b(
      "git.log(string, string) should be replaced with git.log({ from: string, to: string })"
    );
  }
}
class Z {
  constructor(e, n = null, r) {
    this.reason = e, this.file = n, this.meta = r;
  }
  toString() {
    return `${this.file}:${this.reason}`;
  }
}
class dr {
  constructor() {
    this.conflicts = [], this.merges = [], this.result = "success";
  }
  get failed() {
    return this.conflicts.length > 0;
  }
  get reason() {
    return this.result;
  }
  toString() {
    return this.conflicts.length ? `CONFLICTS: ${this.conflicts.join(", ")}` : "OK";
  }
}
class ie {
  constructor() {
    this.remoteMessages = {
      all: []
    }, this.created = [], this.deleted = [], this.files = [], this.deletions = {}, this.insertions = {}, this.summary = {
      changes: 0,
      deletions: 0,
      insertions: 0
    };
  }
}
class gr {
  constructor() {
    this.remote = "", this.hash = {
      local: "",
      remote: ""
    }, this.branch = {
      local: "",
      remote: ""
    }, this.message = "";
  }
  toString() {
    return this.message;
  }
}
function tt(t) {
  return t.objects = t.objects || {
    compressing: 0,
    counting: 0,
    enumerating: 0,
    packReused: 0,
    reused: { count: 0, delta: 0 },
    total: { count: 0, delta: 0 }
  };
}
function Ct(t) {
  const e = /^\s*(\d+)/.exec(t), n = /delta (\d+)/i.exec(t);
  return {
    count: p(e && e[1] || "0"),
    delta: p(n && n[1] || "0")
  };
}
const yr = [
  new x(
    /^remote:\s*(enumerating|counting|compressing) objects: (\d+),/i,
    (t, [e, n]) => {
      const r = e.toLowerCase(), s = tt(t.remoteMessages);
      Object.assign(s, { [r]: p(n) });
    }
  ),
  new x(
    /^remote:\s*(enumerating|counting|compressing) objects: \d+% \(\d+\/(\d+)\),/i,
    (t, [e, n]) => {
      const r = e.toLowerCase(), s = tt(t.remoteMessages);
      Object.assign(s, { [r]: p(n) });
    }
  ),
  new x(
    /total ([^,]+), reused ([^,]+), pack-reused (\d+)/i,
    (t, [e, n, r]) => {
      const s = tt(t.remoteMessages);
      s.total = Ct(e), s.reused = Ct(n), s.packReused = p(r);
    }
  )
], wr = [
  new x(/^remote:\s*(.+)$/, (t, [e]) => (t.remoteMessages.all.push(e.trim()), false)),
  ...yr,
  new x(
    [/create a (?:pull|merge) request/i, /\s(https?:\/\/\S+)$/],
    (t, [e]) => {
      t.remoteMessages.pullRequestUrl = e;
    }
  ),
  new x(
    [/found (\d+) vulnerabilities.+\(([^)]+)\)/i, /\s(https?:\/\/\S+)$/],
    (t, [e, n, r]) => {
      t.remoteMessages.vulnerabilities = {
        count: p(e),
        summary: n,
        url: r
      };
    }
  )
];
function ae(t, e) {
  return E({ remoteMessages: new br() }, wr, e);
}
class br {
  constructor() {
    this.all = [];
  }
}
const Tr = /^\s*(.+?)\s+\|\s+\d+\s*(\+*)(-*)/, kr = /(\d+)\D+((\d+)\D+\(\+\))?(\D+(\d+)\D+\(-\))?/, _r = /^(create|delete) mode \d+ (.+)/, vr = [
  new l(Tr, (t, [e, n, r]) => {
    t.files.push(e), n && (t.insertions[e] = n.length), r && (t.deletions[e] = r.length);
  }),
  new l(kr, (t, [e, , n, , r]) => n !== void 0 || r !== void 0 ? (t.summary.changes = +e || 0, t.summary.insertions = +n || 0, t.summary.deletions = +r || 0, true) : false),
  new l(_r, (t, [e, n]) => {
    S(t.files, n), S(e === "create" ? t.created : t.deleted, n);
  })
], Er = [
  new l(/^from\s(.+)$/i, (t, [e]) => {
    t.remote = e;
  }),
  new l(/^fatal:\s(.+)$/, (t, [e]) => {
    t.message = e;
  }),
  new l(
    /([a-z0-9]+)\.\.([a-z0-9]+)\s+(\S+)\s+->\s+(\S+)$/,
    (t, [e, n, r, s]) => {
      t.branch.local = r, t.hash.local = e, t.branch.remote = s, t.hash.remote = n;
    }
  )
], Sr = (t, e) => E(new ie(), vr, [t, e]), ue = (t, e) => Object.assign(
  new ie(),
  Sr(t, e),
  ae(t, e)
);
function Rr(t, e) {
  const n = E(new gr(), Er, [t, e]);
  return n.message && n;
}
const Or = [
  new l(/^Auto-merging\s+(.+)$/, (t, [e]) => {
    t.merges.push(e);
  }),
  new l(/^CONFLICT\s+\((.+)\): Merge conflict in (.+)$/, (t, [e, n]) => {
    t.conflicts.push(new Z(e, n));
  }),
  new l(
    /^CONFLICT\s+\((.+\/delete)\): (.+) deleted in (.+) and/,
    (t, [e, n, r]) => {
      t.conflicts.push(new Z(e, n, { deleteRef: r }));
    }
  ),
  new l(/^CONFLICT\s+\((.+)\):/, (t, [e]) => {
    t.conflicts.push(new Z(e, null));
  }),
  new l(/^Automatic merge failed;\s+(.+)$/, (t, [e]) => {
    t.result = e;
  })
], Cr = (t, e) => Object.assign(Ar(t), ue(t, e)), Ar = (t) => E(new dr(), Or, t);
function At(t) {
  return t.length ? {
    commands: ["merge", ...t],
    format: "utf-8",
    parser(e, n) {
      const r = Cr(e, n);
      if (r.failed)
        throw new at(r);
      return r;
    }
  } : b("Git.merge requires at least one option");
}
function xr(t, e, n) {
  const r = n.includes("deleted"), s = n.includes("tag") || /^refs\/tags/.test(t), o = !n.includes("new");
  return {
    deleted: r,
    tag: s,
    branch: !s,
    new: !o,
    alreadyUpdated: o,
    local: t,
    remote: e
  };
}
const Nr = [
  new l(/^Pushing to (.+)$/, (t, [e]) => {
    t.repo = e;
  }),
  new l(/^updating local tracking ref '(.+)'/, (t, [e]) => {
    t.ref = {
      ...t.ref || {},
      local: e
    };
  }),
  new l(/^[=*-]\s+([^:]+):(\S+)\s+\[(.+)]$/, (t, [e, n, r]) => {
    t.pushed.push(xr(e, n, r));
  }),
  new l(
    /^Branch '([^']+)' set up to track remote branch '([^']+)' from '([^']+)'/,
    (t, [e, n, r]) => {
      t.branch = {
        ...t.branch || {},
        local: e,
        remote: n,
        remoteName: r
      };
    }
  ),
  new l(
    /^([^:]+):(\S+)\s+([a-z0-9]+)\.\.([a-z0-9]+)$/,
    (t, [e, n, r, s]) => {
      t.update = {
        head: {
          local: e,
          remote: n
        },
        hash: {
          from: r,
          to: s
        }
      };
    }
  )
], $r = (t, e) => {
  const n = Pr(t, e), r = ae(t, e);
  return {
    ...n,
    ...r
  };
}, Pr = (t, e) => E({ pushed: [] }, Nr, [t, e]);
function Mr(t = {}, e) {
  return S(e, "--tags"), ce(t, e);
}
function ce(t = {}, e) {
  const n = ["push", ...e];
  return t.branch && n.splice(1, 0, t.branch), t.remote && n.splice(1, 0, t.remote), ct(n, "-v"), S(n, "--verbose"), S(n, "--porcelain"), {
    commands: n,
    format: "utf-8",
    parser: $r
  };
}
function Dr() {
  return {
    showBuffer() {
      const t = ["show", ...h(arguments, 1)];
      return t.includes("--binary") || t.splice(1, 0, "--binary"), this._runTask(
        Gt(t),
        u(arguments)
      );
    },
    show() {
      const t = ["show", ...h(arguments, 1)];
      return this._runTask(
        g(t),
        u(arguments)
      );
    }
  };
}
const Lr = /^(.+)\0(.+)$/;
class jr {
  constructor(e, n, r) {
    if (this.path = e, this.index = n, this.working_dir = r, n === "R" || r === "R") {
      const s = Lr.exec(e) || [null, e, e];
      this.from = s[2] || "", this.path = s[1] || "";
    }
  }
}
class Br {
  constructor() {
    this.not_added = [], this.conflicted = [], this.created = [], this.deleted = [], this.ignored = void 0, this.modified = [], this.renamed = [], this.files = [], this.staged = [], this.ahead = 0, this.behind = 0, this.current = null, this.tracking = null, this.detached = false, this.isClean = () => !this.files.length;
  }
}
function xt(t) {
  const [e, n] = t.split(I);
  return {
    from: n || e,
    to: e
  };
}
function _(t, e, n) {
  return [`${t}${e}`, n];
}
function et(t, ...e) {
  return e.map((n) => _(t, n, (r, s) => r.conflicted.push(s)));
}
const Ir = new Map([
  _(
    " ",
    "A",
    (t, e) => t.created.push(e)
  ),
  _(
    " ",
    "D",
    (t, e) => t.deleted.push(e)
  ),
  _(
    " ",
    "M",
    (t, e) => t.modified.push(e)
  ),
  _("A", " ", (t, e) => {
    t.created.push(e), t.staged.push(e);
  }),
  _("A", "M", (t, e) => {
    t.created.push(e), t.staged.push(e), t.modified.push(e);
  }),
  _("D", " ", (t, e) => {
    t.deleted.push(e), t.staged.push(e);
  }),
  _("M", " ", (t, e) => {
    t.modified.push(e), t.staged.push(e);
  }),
  _("M", "M", (t, e) => {
    t.modified.push(e), t.staged.push(e);
  }),
  _("R", " ", (t, e) => {
    t.renamed.push(xt(e));
  }),
  _("R", "M", (t, e) => {
    const n = xt(e);
    t.renamed.push(n), t.modified.push(n.to);
  }),
  _("!", "!", (t, e) => {
    (t.ignored = t.ignored || []).push(e);
  }),
  _(
    "?",
    "?",
    (t, e) => t.not_added.push(e)
  ),
  ...et(
    "A",
    "A",
    "U"
    /* UNMERGED */
  ),
  ...et(
    "D",
    "D",
    "U"
    /* UNMERGED */
  ),
  ...et(
    "U",
    "A",
    "D",
    "U"
    /* UNMERGED */
  ),
  [
    "##",
    (t, e) => {
      const n = /ahead (\d+)/, r = /behind (\d+)/, s = /^(.+?(?=(?:\.{3}|\s|$)))/, o = /\.{3}(\S*)/, i = /\son\s(\S+?)(?=\.{3}|$)/;
      let a = n.exec(e);
      t.ahead = a && +a[1] || 0, a = r.exec(e), t.behind = a && +a[1] || 0, a = s.exec(e), t.current = d(a?.[1], m, null), a = o.exec(e), t.tracking = d(a?.[1], m, null), a = i.exec(e), a && (t.current = d(a?.[1], m, t.current)), t.detached = /\(no branch\)/.test(e);
    }
  ]
]), Ur = function(t) {
  const e = t.split(I), n = new Br();
  for (let r = 0, s = e.length; r < s; ) {
    let o = e[r++].trim();
    o && (o.charAt(0) === "R" && (o += I + (e[r++] || "")), Fr(n, o));
  }
  return n;
};
function Fr(t, e) {
  const n = e.trim();
  switch (" ") {
    case n.charAt(2):
      return r(n.charAt(0), n.charAt(1), n.slice(3));
    case n.charAt(1):
      return r(" ", n.charAt(0), n.slice(2));
    default:
      return;
  }
  function r(s, o, i) {
    const a = `${s}${o}`, c = Ir.get(a);
    c && c(t, i), a !== "##" && a !== "!!" && t.files.push(new jr(i, s, o));
  }
}
const Gr = ["--null", "-z"];
function zr(t) {
  return {
    format: "utf-8",
    commands: [
      "status",
      "--porcelain",
      "-b",
      "-u",
      "--null",
      ...t.filter((n) => !Gr.includes(n))
    ],
    parser(n) {
      return Ur(n);
    }
  };
}
const fe = "installed=false";
function q(t = 0, e = 0, n = 0, r = "", s = true) {
  return Object.defineProperty(
    {
      major: t,
      minor: e,
      patch: n,
      agent: r,
      installed: s
    },
    "toString",
    {
      value() {
        return `${this.major}.${this.minor}.${this.patch}`;
      },
      configurable: false,
      enumerable: false
    }
  );
}
function qr() {
  return q(0, 0, 0, "", false);
}
function Wr() {
  return {
    version() {
      return this._runTask({
        commands: ["--version"],
        format: "utf-8",
        parser: Kr,
        onError(t, e, n, r) {
          if (t.exitCode === V.NOT_FOUND)
            return n(Buffer.from(fe));
          r(e);
        }
      });
    }
  };
}
const Hr = [
  new l(
    /version (\d+)\.(\d+)\.(\d+)(?:\s*\((.+)\))?/,
    (t, [e, n, r, s = ""]) => {
      Object.assign(
        t,
        q(p(e), p(n), p(r), s)
      );
    }
  ),
  new l(
    /version (\d+)\.(\d+)\.(\D+)(.+)?$/,
    (t, [e, n, r, s = ""]) => {
      Object.assign(t, q(p(e), p(n), r, s));
    }
  )
];
function Kr(t) {
  return t === fe ? qr() : E(q(0, 0, 0, t), Hr, t);
}
class le {
  constructor(e) {
    this._executor = e;
  }
  _runTask(e, n) {
    const r = this._executor.chain(), s = r.push(e);
    return n && Ln(e, s, n), Object.create(this, {
      then: { value: s.then.bind(s) },
      catch: { value: s.catch.bind(s) },
      _executor: { value: r }
    });
  }
  add(e) {
    return this._runTask(
      g(["add", ...v(e)]),
      u(arguments)
    );
  }
  cwd(e) {
    const n = u(arguments);
    return typeof e == "string" ? this._runTask(St(e, this._executor), n) : typeof e?.path == "string" ? this._runTask(
      St(
        e.path,
        e.root && this._executor || void 0
      ),
      n
    ) : this._runTask(
      b("Git.cwd: workingDirectory must be supplied as a string"),
      n
    );
  }
  hashObject(e, n) {
    return this._runTask(
      Vn(e, n === true),
      u(arguments)
    );
  }
  init(e) {
    return this._runTask(
      Zn(e === true, this._executor.cwd, h(arguments)),
      u(arguments)
    );
  }
  merge() {
    return this._runTask(
      At(h(arguments)),
      u(arguments)
    );
  }
  mergeFromTo(e, n) {
    return m(e) && m(n) ? this._runTask(
      At([e, n, ...h(arguments)]),
      u(arguments, false)
    ) : this._runTask(
      b(
        "Git.mergeFromTo requires that the 'remote' and 'branch' arguments are supplied as strings"
      )
    );
  }
  outputHandler(e) {
    return this._executor.outputHandler = e, this;
  }
  push() {
    const e = ce(
      {
        remote: d(arguments[0], m),
        branch: d(arguments[1], m)
      },
      h(arguments)
    );
    return this._runTask(e, u(arguments));
  }
  stash() {
    return this._runTask(
      g(["stash", ...h(arguments)]),
      u(arguments)
    );
  }
  status() {
    return this._runTask(
      zr(h(arguments)),
      u(arguments)
    );
  }
}
Object.assign(
  le.prototype,
  jn(),
  In(),
  zn(),
  Tn(),
  Hn(),
  Kn(),
  On(),
  er(),
  pr(),
  Dr(),
  Wr()
);
const Vr = /* @__PURE__ */ (() => {
  let t = 0;
  return () => {
    t++;
    const { promise: e, done: n } = distExports.createDeferred();
    return {
      promise: e,
      done: n,
      id: t
    };
  };
})();
class Xr {
  constructor(e = 2) {
    this.concurrency = e, this.logger = $("", "scheduler"), this.pending = [], this.running = [], this.logger("Constructed, concurrency=%s", e);
  }
  schedule() {
    if (!this.pending.length || this.running.length >= this.concurrency) {
      this.logger(
        "Schedule attempt ignored, pending=%s running=%s concurrency=%s",
        this.pending.length,
        this.running.length,
        this.concurrency
      );
      return;
    }
    const e = S(this.running, this.pending.shift());
    this.logger("Attempting id=%s", e.id), e.done(() => {
      this.logger("Completing id=", e.id), ct(this.running, e), this.schedule();
    });
  }
  next() {
    const { promise: e, id: n } = S(this.pending, Vr());
    return this.logger("Scheduling id=%s", n), this.schedule(), e;
  }
}
function Yr(t, e) {
  return g(["apply", ...e, ...t]);
}
var he = /* @__PURE__ */ ((t) => (t.CURRENT = "*", t.LINKED = "+", t))(he || {});
class Qr {
  constructor() {
    this.all = [], this.branches = {}, this.current = "", this.detached = false;
  }
  push(e, n, r, s, o) {
    e === "*" && (this.detached = n, this.current = r), this.all.push(r), this.branches[r] = {
      current: e === "*",
      linkedWorkTree: e === "+",
      name: r,
      commit: s,
      label: o
    };
  }
}
const Jr = [
  new l(
    /^([*+]\s)?\((?:HEAD )?detached (?:from|at) (\S+)\)\s+([a-z0-9]+)\s(.*)$/,
    (t, [e, n, r, s]) => {
      t.push(Nt(e), true, n, r, s);
    }
  ),
  new l(
    /^([*+]\s)?(\S+)\s+([a-z0-9]+)\s?(.*)$/s,
    (t, [e, n, r, s]) => {
      t.push(Nt(e), false, n, r, s);
    }
  )
], Zr = new l(/^(\S+)$/s, (t, [e]) => {
  t.push(he.CURRENT, false, e, "", "");
});
function Nt(t) {
  return t ? t.charAt(0) : "";
}
function me(t, e = false) {
  return E(
    new Qr(),
    e ? [Zr] : Jr,
    t
  );
}
class ts {
  constructor() {
    this.all = [], this.branches = {}, this.errors = [];
  }
  get success() {
    return !this.errors.length;
  }
}
function es(t, e) {
  return {
    branch: t,
    hash: e,
    success: true
  };
}
function ns(t) {
  return {
    branch: t,
    hash: null,
    success: false
  };
}
const rs = /(\S+)\s+\(\S+\s([^)]+)\)/, pe = /^error[^']+'([^']+)'/m, ss = [
  new l(rs, (t, [e, n]) => {
    const r = es(e, n);
    t.all.push(r), t.branches[e] = r;
  }),
  new l(pe, (t, [e]) => {
    const n = ns(e);
    t.errors.push(n), t.all.push(n), t.branches[e] = n;
  })
], gt = (t, e) => E(new ts(), ss, [t, e]);
function de(t, e) {
  return e === V.ERROR && pe.test(t);
}
function os(t) {
  const e = ["-d", "-D", "--delete"];
  return t.some((n) => e.includes(n));
}
function is(t) {
  const e = os(t), n = t.includes("--show-current"), r = ["branch", ...t];
  return r.length === 1 && r.push("-a"), r.includes("-v") || r.splice(1, 0, "-v"), {
    format: "utf-8",
    commands: r,
    parser(s, o) {
      return e ? gt(s, o).all[0] : me(s, n);
    }
  };
}
function as() {
  return {
    format: "utf-8",
    commands: ["branch", "-v"],
    parser(t) {
      return me(t);
    }
  };
}
function us(t, e = false) {
  return {
    format: "utf-8",
    commands: ["branch", "-v", e ? "-D" : "-d", ...t],
    parser(n, r) {
      return gt(n, r);
    },
    onError({ exitCode: n, stdOut: r }, s, o, i) {
      if (!de(String(s), n))
        return i(s);
      o(r);
    }
  };
}
function cs(t, e = false) {
  const n = {
    format: "utf-8",
    commands: ["branch", "-v", e ? "-D" : "-d", t],
    parser(r, s) {
      return gt(r, s).branches[t];
    },
    onError({ exitCode: r, stdErr: s, stdOut: o }, i, a, c) {
      if (!de(String(i), r))
        return c(i);
      throw new at(
        n.parser(F(o), F(s)),
        String(i)
      );
    }
  };
  return n;
}
function fs(t) {
  return {
    commands: ["check-ignore", ...t],
    format: "utf-8",
    parser: ls
  };
}
function ls(t) {
  return t.split(/\n/g).map(hs).filter(Boolean);
}
function hs(t) {
  const e = t.trim().replace(/^["']|["']$/g, "");
  return e && normalize(e);
}
const ms = [
  new l(/From (.+)$/, (t, [e]) => {
    t.remote = e;
  }),
  new l(/\* \[new branch]\s+(\S+)\s*-> (.+)$/, (t, [e, n]) => {
    t.branches.push({
      name: e,
      tracking: n
    });
  }),
  new l(/\* \[new tag]\s+(\S+)\s*-> (.+)$/, (t, [e, n]) => {
    t.tags.push({
      name: e,
      tracking: n
    });
  }),
  new l(/- \[deleted]\s+\S+\s*-> (.+)$/, (t, [e]) => {
    t.deleted.push({
      tracking: e
    });
  }),
  new l(
    /\s*([^.]+)\.\.(\S+)\s+(\S+)\s*-> (.+)$/,
    (t, [e, n, r, s]) => {
      t.updated.push({
        name: r,
        tracking: s,
        to: n,
        from: e
      });
    }
  )
];
function ps(t, e) {
  return E({
    raw: t,
    remote: null,
    branches: [],
    tags: [],
    updated: [],
    deleted: []
  }, ms, [t, e]);
}
function ds(t) {
  return /^--upload-pack(=|$)/.test(t);
}
function gs(t, e, n) {
  const r = ["fetch", ...n];
  return t && e && r.push(t, e), r.find(ds) ? b("git.fetch: potential exploit argument blocked.") : {
    commands: r,
    format: "utf-8",
    parser: ps
  };
}
const ys = [
  new l(/^Renaming (.+) to (.+)$/, (t, [e, n]) => {
    t.moves.push({ from: e, to: n });
  })
];
function ws(t) {
  return E({ moves: [] }, ys, t);
}
function bs(t, e) {
  return {
    commands: ["mv", "-v", ...v(t), e],
    format: "utf-8",
    parser: ws
  };
}
function Ts(t, e, n) {
  const r = ["pull", ...n];
  return t && e && r.splice(1, 0, t, e), {
    commands: r,
    format: "utf-8",
    parser(s, o) {
      return ue(s, o);
    },
    onError(s, o, i, a) {
      const c = Rr(
        F(s.stdOut),
        F(s.stdErr)
      );
      if (c)
        return a(new at(c));
      a(o);
    }
  };
}
function ks(t) {
  const e = {};
  return ge(t, ([n]) => e[n] = { name: n }), Object.values(e);
}
function _s(t) {
  const e = {};
  return ge(t, ([n, r, s]) => {
    Object.hasOwn(e, n) || (e[n] = {
      name: n,
      refs: { fetch: "", push: "" }
    }), s && r && (e[n].refs[s.replace(/[^a-z]/g, "")] = r);
  }), Object.values(e);
}
function ge(t, e) {
  ut(t, (n) => e(n.split(/\s+/)));
}
function vs(t, e, n) {
  return g(["remote", "add", ...n, t, e]);
}
function Es(t) {
  const e = ["remote"];
  return t && e.push("-v"), {
    commands: e,
    format: "utf-8",
    parser: t ? _s : ks
  };
}
function Ss(t) {
  const e = [...t];
  return e[0] !== "ls-remote" && e.unshift("ls-remote"), g(e);
}
function Rs(t) {
  const e = [...t];
  return e[0] !== "remote" && e.unshift("remote"), g(e);
}
function Os(t) {
  return g(["remote", "remove", t]);
}
function Cs(t = {}, e) {
  const n = oe(t), r = ["stash", "list", ...n.commands, ...e], s = re(
    n.splitter,
    n.fields,
    pt(r)
  );
  return dt(r) || {
    commands: r,
    format: "utf-8",
    parser: s
  };
}
function As(t, e) {
  return X(["add", t, e]);
}
function xs(t) {
  return X(["init", ...t]);
}
function X(t) {
  const e = [...t];
  return e[0] !== "submodule" && e.unshift("submodule"), g(e);
}
function Ns(t) {
  return X(["update", ...t]);
}
class $s {
  constructor(e, n) {
    this.all = e, this.latest = n;
  }
}
const Ps = function(t, e = false) {
  const n = t.split(`
`).map(Ds).filter(Boolean);
  e || n.sort(function(s, o) {
    const i = s.split("."), a = o.split(".");
    if (i.length === 1 || a.length === 1)
      return Ms(B(i[0]), B(a[0]));
    for (let c = 0, y = Math.max(i.length, a.length); c < y; c++) {
      const w = ye(B(i[c]), B(a[c]));
      if (w)
        return w;
    }
    return 0;
  });
  const r = e ? n[0] : [...n].reverse().find((s) => s.indexOf(".") >= 0);
  return new $s(n, r);
};
function Ms(t, e) {
  const n = Number.isNaN(t), r = Number.isNaN(e);
  return n !== r ? n ? 1 : -1 : n ? ye(t, e) : 0;
}
function ye(t, e) {
  return t === e ? 0 : t > e ? 1 : -1;
}
function Ds(t) {
  return t.trim();
}
function B(t) {
  return typeof t == "string" && parseInt(t.replace(/^\D+/g, ""), 10) || 0;
}
function Ls(t = []) {
  const e = t.some((n) => /^--sort=/.test(n));
  return {
    format: "utf-8",
    commands: ["tag", "-l", ...t],
    parser(n) {
      return Ps(n, e);
    }
  };
}
function js(t) {
  return {
    format: "utf-8",
    commands: ["tag", t],
    parser() {
      return { name: t };
    }
  };
}
function Bs(t, e) {
  return {
    format: "utf-8",
    commands: ["tag", "-a", "-m", e, t],
    parser() {
      return { name: t };
    }
  };
}
function f(t, e) {
  this._plugins = e, this._executor = new Dn(
    t.baseDir,
    new Xr(t.maxConcurrentProcesses),
    e
  ), this._trimmed = t.trimmed;
}
(f.prototype = Object.create(le.prototype)).constructor = f;
f.prototype.customBinary = function(t) {
  return this._plugins.reconfigure("binary", t), this;
};
f.prototype.env = function(t, e) {
  return arguments.length === 1 && typeof t == "object" ? this._executor.env = t : (this._executor.env = this._executor.env || {})[t] = e, this;
};
f.prototype.stashList = function(t) {
  return this._runTask(
    Cs(
      ht(arguments) || {},
      K(t) && t || []
    ),
    u(arguments)
  );
};
f.prototype.mv = function(t, e) {
  return this._runTask(bs(t, e), u(arguments));
};
f.prototype.checkoutLatestTag = function(t) {
  var e = this;
  return this.pull(function() {
    e.tags(function(n, r) {
      e.checkout(r.latest, t);
    });
  });
};
f.prototype.pull = function(t, e, n, r) {
  return this._runTask(
    Ts(
      d(t, m),
      d(e, m),
      h(arguments)
    ),
    u(arguments)
  );
};
f.prototype.fetch = function(t, e) {
  return this._runTask(
    gs(
      d(t, m),
      d(e, m),
      h(arguments)
    ),
    u(arguments)
  );
};
f.prototype.tags = function(t, e) {
  return this._runTask(
    Ls(h(arguments)),
    u(arguments)
  );
};
f.prototype.rebase = function() {
  return this._runTask(
    g(["rebase", ...h(arguments)]),
    u(arguments)
  );
};
f.prototype.reset = function(t) {
  return this._runTask(
    An(xn(t), h(arguments)),
    u(arguments)
  );
};
f.prototype.revert = function(t) {
  const e = u(arguments);
  return typeof t != "string" ? this._runTask(b("Commit must be a string"), e) : this._runTask(
    g(["revert", ...h(arguments, 0, true), t]),
    e
  );
};
f.prototype.addTag = function(t) {
  const e = typeof t == "string" ? js(t) : b("Git.addTag requires a tag name");
  return this._runTask(e, u(arguments));
};
f.prototype.addAnnotatedTag = function(t, e) {
  return this._runTask(
    Bs(t, e),
    u(arguments)
  );
};
f.prototype.deleteLocalBranch = function(t, e, n) {
  return this._runTask(
    cs(t, typeof e == "boolean" ? e : false),
    u(arguments)
  );
};
f.prototype.deleteLocalBranches = function(t, e, n) {
  return this._runTask(
    us(t, typeof e == "boolean" ? e : false),
    u(arguments)
  );
};
f.prototype.branch = function(t, e) {
  return this._runTask(
    is(h(arguments)),
    u(arguments)
  );
};
f.prototype.branchLocal = function(t) {
  return this._runTask(as(), u(arguments));
};
f.prototype.raw = function(t) {
  const e = !Array.isArray(t), n = [].slice.call(e ? arguments : t, 0);
  for (let s = 0; s < n.length && e; s++)
    if (!st(n[s])) {
      n.splice(s, n.length - s);
      break;
    }
  n.push(...h(arguments, 0, true));
  var r = u(arguments);
  return n.length ? this._runTask(g(n, this._trimmed), r) : this._runTask(
    b("Raw: must supply one or more command to execute"),
    r
  );
};
f.prototype.submoduleAdd = function(t, e, n) {
  return this._runTask(As(t, e), u(arguments));
};
f.prototype.submoduleUpdate = function(t, e) {
  return this._runTask(
    Ns(h(arguments, true)),
    u(arguments)
  );
};
f.prototype.submoduleInit = function(t, e) {
  return this._runTask(
    xs(h(arguments, true)),
    u(arguments)
  );
};
f.prototype.subModule = function(t, e) {
  return this._runTask(
    X(h(arguments)),
    u(arguments)
  );
};
f.prototype.listRemote = function() {
  return this._runTask(
    Ss(h(arguments)),
    u(arguments)
  );
};
f.prototype.addRemote = function(t, e, n) {
  return this._runTask(
    vs(t, e, h(arguments)),
    u(arguments)
  );
};
f.prototype.removeRemote = function(t, e) {
  return this._runTask(Os(t), u(arguments));
};
f.prototype.getRemotes = function(t, e) {
  return this._runTask(Es(t === true), u(arguments));
};
f.prototype.remote = function(t, e) {
  return this._runTask(
    Rs(h(arguments)),
    u(arguments)
  );
};
f.prototype.tag = function(t, e) {
  const n = h(arguments);
  return n[0] !== "tag" && n.unshift("tag"), this._runTask(g(n), u(arguments));
};
f.prototype.updateServerInfo = function(t) {
  return this._runTask(
    g(["update-server-info"]),
    u(arguments)
  );
};
f.prototype.pushTags = function(t, e) {
  const n = Mr(
    { remote: d(t, m) },
    h(arguments)
  );
  return this._runTask(n, u(arguments));
};
f.prototype.rm = function(t) {
  return this._runTask(
    g(["rm", "-f", ...v(t)]),
    u(arguments)
  );
};
f.prototype.rmKeepLocal = function(t) {
  return this._runTask(
    g(["rm", "--cached", ...v(t)]),
    u(arguments)
  );
};
f.prototype.catFile = function(t, e) {
  return this._catFile("utf-8", arguments);
};
f.prototype.binaryCatFile = function() {
  return this._catFile("buffer", arguments);
};
f.prototype._catFile = function(t, e) {
  var n = u(e), r = ["cat-file"], s = e[0];
  if (typeof s == "string")
    return this._runTask(
      b("Git.catFile: options must be supplied as an array of strings"),
      n
    );
  Array.isArray(s) && r.push.apply(r, s);
  const o = t === "buffer" ? Gt(r) : g(r);
  return this._runTask(o, n);
};
f.prototype.diff = function(t, e) {
  const n = m(t) ? b(
    "git.diff: supplying options as a single string is no longer supported, switch to an array of strings"
  ) : g(["diff", ...h(arguments)]);
  return this._runTask(n, u(arguments));
};
f.prototype.diffSummary = function() {
  return this._runTask(
    fr(h(arguments, 1)),
    u(arguments)
  );
};
f.prototype.applyPatch = function(t) {
  const e = G(t) ? Yr(v(t), h([].slice.call(arguments, 1))) : b(
    "git.applyPatch requires one or more string patches as the first argument"
  );
  return this._runTask(e, u(arguments));
};
f.prototype.revparse = function() {
  const t = ["rev-parse", ...h(arguments, true)];
  return this._runTask(
    g(t, true),
    u(arguments)
  );
};
f.prototype.clean = function(t, e, n) {
  const r = un(t), s = r && t.join("") || d(t, m) || "", o = h([].slice.call(arguments, r ? 1 : 0));
  return this._runTask(
    on(s, o),
    u(arguments)
  );
};
f.prototype.exec = function(t) {
  const e = {
    commands: [],
    format: "utf-8",
    parser() {
      typeof t == "function" && t();
    }
  };
  return this._runTask(e);
};
f.prototype.checkIgnore = function(t, e) {
  return this._runTask(
    fs(v(d(t, G, []))),
    u(arguments)
  );
};
f.prototype.checkIsRepo = function(t, e) {
  return this._runTask(
    We(d(t, m)),
    u(arguments)
  );
};
function Is(t) {
  return t ? [{
    type: "spawn.before",
    action(r, s) {
      t.aborted && s.kill(new A(void 0, "abort", "Abort already signaled"));
    }
  }, {
    type: "spawn.after",
    action(r, s) {
      function o() {
        s.kill(new A(void 0, "abort", "Abort signal received"));
      }
      t.addEventListener("abort", o), s.spawned.on("close", () => t.removeEventListener("abort", o));
    }
  }] : void 0;
}
const Us = $("", "plugin:allowEnvironment");
function Fs(t, e = false) {
  const n = new Set(t.map((r) => r.toLowerCase().trim()));
  return {
    type: "spawn.options",
    action(r, s) {
      const o = { ...r.env ?? process.env }, i = new Set(
        Object.keys(s.env).map((a) => a.toLowerCase().trim())
      );
      for (const a of Object.keys(o)) {
        const c = a.toLowerCase().trim();
        if (!(!Gs(c) || n.has(c))) {
          if (i.has(c))
            throw new A(
              void 0,
              "allowEnvironment",
              `Use of "${a}" is blocked by the environment guard - add it to the allowEnvironment option to permit it`
            );
          Us("removing ambient guarded environment variable %s", a), delete o[a];
        }
      }
      return {
        ...r,
        env: {
          ...o,
          GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS: String(!e)
        }
      };
    }
  };
}
function Gs(t) {
  const e = t.toLowerCase().trim();
  return e.startsWith("git_") || _$1(e);
}
function zs(t = {}) {
  return {
    type: "spawn.args",
    action(e, { env: n }) {
      for (const r of oe$1(e, n))
        if (t[r.category] !== true)
          throw new A(void 0, "unsafe", r.message);
      return e;
    }
  };
}
function qs(t) {
  const e = U(t, "-c");
  return {
    type: "spawn.args",
    action(n) {
      return [...e, ...n];
    }
  };
}
const $t = distExports.deferred().promise;
function Ws({
  onClose: t = true,
  onExit: e = 50
} = {}) {
  function n() {
    let s = -1;
    const o = {
      close: distExports.deferred(),
      closeTimeout: distExports.deferred(),
      exit: distExports.deferred(),
      exitTimeout: distExports.deferred()
    }, i = Promise.race([
      t === false ? $t : o.closeTimeout.promise,
      e === false ? $t : o.exitTimeout.promise
    ]);
    return r(t, o.close, o.closeTimeout), r(e, o.exit, o.exitTimeout), {
      close(a) {
        s = a, o.close.done();
      },
      exit(a) {
        s = a, o.exit.done();
      },
      get exitCode() {
        return s;
      },
      result: i
    };
  }
  function r(s, o, i) {
    s !== false && (s === true ? o.promise : o.promise.then(() => wt(s))).then(i.done);
  }
  return {
    type: "spawn.after",
    async action(s, { spawned: o, close: i }) {
      const a = n();
      let c = true, y = () => {
        c = false;
      };
      o.stdout?.on("data", y), o.stderr?.on("data", y), o.on("error", y), o.on("close", (w) => a.close(w)), o.on("exit", (w) => a.exit(w));
      try {
        await a.result, c && await wt(50), i(a.exitCode);
      } catch (w) {
        i(a.exitCode, w);
      }
    }
  };
}
const we = $("", "plugin:binary"), Hs = "Invalid value supplied for custom binary, requires a single string or an array containing either one or two strings", Ks = "Invalid value supplied for custom binary, restricted characters must be removed or supply the unsafe.allowUnsafeCustomBinary option";
function Vs(t) {
  return !t || !/^([a-z]:)?([a-z0-9/.\\_~-]+)$/i.test(t);
}
function Pt(t, e) {
  if (t.length < 1 || t.length > 2)
    throw new A(void 0, "binary", Hs);
  if (t.some(Vs))
    if (e)
      we("permitted unsafe binary %o", t);
    else
      throw new A(void 0, "binary", Ks);
  const [r, s] = t;
  return {
    binary: r,
    prefix: s
  };
}
function Xs(t, e = ["git"], n = false) {
  let r = Pt(v(e), n);
  t.on("binary", (s) => {
    r = Pt(v(s), n), we.info("reconfiguring %o", r);
  }), t.append("spawn.binary", () => r.binary), t.append("spawn.args", (s) => r.prefix ? [r.prefix, ...s] : s);
}
const be = {
  DISALLOWED_ABBREVIATED: {
    text: "disallowed abbreviated or ambiguous option",
    solution: "Unambiguous abbreviated options blocked with unsafe.allowAbbreviatedOptions setting: {message}"
  },
  UNKNOWN: {
    text: "~ unknown ~",
    solution: void 0
  }
};
function Ys(t) {
  if (!t)
    return "UNKNOWN";
  for (const [e, { text: n }] of Object.entries(be))
    if (t.startsWith(`fatal: ${n}`))
      return e;
  return "UNKNOWN";
}
class Qs extends O {
  constructor(e = "") {
    const n = Ys(e);
    super(void 0, be[n].solution?.replace("{message}", e) ?? e), this.reason = n;
  }
}
function Js(t) {
  return !!(t.exitCode && t.stdErr.length);
}
function Zs(t) {
  return Buffer.concat([...t.stdOut, ...t.stdErr]);
}
function to(t = false, e = Js, n = Zs) {
  return (r, s) => !t && r || !e(s) ? r : n(s);
}
function eo(t, e) {
  return t === 128 && e.startsWith("fatal:") ? new Qs(e) : new O(void 0, e);
}
function Mt(t) {
  return {
    type: "task.error",
    action(e, n) {
      const r = t(e.error, {
        stdErr: n.stdErr,
        stdOut: n.stdOut,
        exitCode: n.exitCode
      });
      return Buffer.isBuffer(r) ? {
        error: eo(n.exitCode, r.toString("utf-8"))
      } : {
        error: r
      };
    }
  };
}
const nt = $("", "plugin:input");
function no(t) {
  return {
    type: "spawn.after",
    action(e, { commands: n, input: r, spawned: { stdin: s } }) {
      if (!s)
        return;
      const o = t?.([...n]) ?? r;
      if (!o)
        return nt("generated zero length content, not writing to stdin");
      nt("writing %s bytes to stdin", Le(o)), s.on("error", (i) => {
        i.code !== "EPIPE" && nt("[ERROR] stdin error %o", i);
      }), s.end(o);
    }
  };
}
class ro {
  constructor() {
    this.plugins = /* @__PURE__ */ new Set(), this.events = new EventEmitter();
  }
  on(e, n) {
    this.events.on(e, n);
  }
  reconfigure(e, n) {
    this.events.emit(e, n);
  }
  append(e, n) {
    const r = S(this.plugins, { type: e, action: n });
    return () => this.plugins.delete(r);
  }
  add(e) {
    const n = [];
    return v(e).forEach(
      (r) => {
        r && this.plugins.add(S(n, r));
      }
    ), () => {
      n.forEach((r) => {
        this.plugins.delete(r);
      });
    };
  }
  exec(e, n, r) {
    let s = n;
    const o = Object.freeze(Object.create(r));
    for (const i of this.plugins)
      i.type === e && (s = i.action(s, o));
    return s;
  }
}
function so(t) {
  const e = "--progress", n = ["checkout", "clone", "fetch", "pull", "push"];
  return [{
    type: "spawn.args",
    action(o, i) {
      return n.includes(i.method) ? De(o, e) : o;
    }
  }, {
    type: "spawn.after",
    action(o, i) {
      i.commands.includes(e) && i.spawned.stderr?.on("data", (a) => {
        const c = /^([\s\S]+?):\s*(\d+)% \((\d+)\/(\d+)\)/.exec(a.toString("utf8"));
        c && t({
          method: i.method,
          stage: oo(c[1]),
          progress: p(c[2]),
          processed: p(c[3]),
          total: p(c[4])
        });
      });
    }
  }];
}
function oo(t) {
  return String(t.toLowerCase().split(" ", 1)) || "unknown";
}
function io(t) {
  const e = je(t, ["uid", "gid"]);
  return {
    type: "spawn.options",
    action(n) {
      return { ...e, ...n };
    }
  };
}
function ao() {
  return {
    type: "spawn.args",
    action(t) {
      const e = [];
      let n;
      function r$1(s) {
        (n = n || []).push(...s);
      }
      for (let s = 0; s < t.length; s++) {
        const o$1 = t[s];
        if (r(o$1)) {
          r$1(o(o$1));
          continue;
        }
        if (o$1 === "--") {
          r$1(
            t.slice(s + 1).flatMap((i) => r(i) && o(i) || i)
          );
          break;
        }
        e.push(o$1);
      }
      return n ? [...e, "--", ...n.map(String)] : e;
    }
  };
}
function uo({
  block: t,
  stdErr: e = true,
  stdOut: n = true
}) {
  if (t > 0)
    return {
      type: "spawn.after",
      action(r, s) {
        let o;
        function i() {
          o && clearTimeout(o), o = setTimeout(c, t);
        }
        function a() {
          s.spawned.stdout?.off("data", i), s.spawned.stderr?.off("data", i), s.spawned.off("exit", a), s.spawned.off("close", a), o && clearTimeout(o);
        }
        function c() {
          a(), s.kill(new A(void 0, "timeout", "block timeout reached"));
        }
        n && s.spawned.stdout?.on("data", i), e && s.spawned.stderr?.on("data", i), s.spawned.on("exit", a), s.spawned.on("close", a), i();
      }
    };
}
const wo = (t, e) => {
  const n = new ro(), r = Ge(
    t && (typeof t == "string" ? { baseDir: t } : t) || {},
    e
  );
  if (!Lt(r.baseDir))
    throw new Ae(
      r,
      "Cannot use simple-git on a directory that does not exist"
    );
  return Array.isArray(r.config) && n.add(qs(r.config)), n.add(zs(r.unsafe)), n.add(Ws(r.completion)), r.abort && n.add(Is(r.abort)), r.progress && n.add(so(r.progress)), r.timeout && n.add(uo(r.timeout)), r.spawnOptions && n.add(io(r.spawnOptions)), n.add(ao()), n.add(no(r.input)), n.add(Mt(to(true))), r.errors && n.add(Mt(r.errors)), Xs(n, r.binary, r.unsafe?.allowUnsafeCustomBinary), n.add(
    Fs(r.allowEnvironment ?? [], r.unsafe?.allowAbbreviatedOptions)
  ), new f(r, n);
};

// What simple-git's safety guards must be told so that a git call runs with exactly the environment and
// `-c` settings the runner chose. simple-git 4 refuses a call whose explicit `.env()` holds a "guarded"
// variable (every GIT_* key, plus EDITOR, PAGER, VISUAL, PREFIX, SSH_ASKPASS) that `allowEnvironment`
// does not name, and refuses some variables and `-c` keys outright unless an `unsafe` flag opts in.
//
// The environment is the user's own (sanitized by env.ts): the same trust as their ~/.gitconfig, which
// simple-git never inspects. So the guard is told about exactly the keys present in the environment of
// each call, and granted exactly the categories those keys trigger, as judged by simple-git's own guard
// code (@simple-git/argv-parser, the module simple-git imports). Nothing is stripped, nothing extra is
// opened. Arguments get no such pass: only the categories our fixed `-c` settings need are granted, so a
// caller that passes e.g. `-c core.sshCommand=...` is still refused.
/**
 * Granted for our own BASE_CONFIG (env.ts): `core.hooksPath=/dev/null` turns the user's hooks OFF for our
 * plumbing and `core.fsmonitor=false` skips a daemon whose answers are about the user's index, not ours.
 * simple-git blocks any `-c` of these keys because another value could run a program.
 */
const CONFIG_UNSAFE_FLAGS = {
    allowUnsafeHooksPath: true,
    allowUnsafeFsMonitor: true,
};
/** The keys of `env` that simple-git guards: a key it guards but `allowEnvironment` omits fails the call. */
function guardedEnvKeys(env) {
    return Object.keys(env).filter((key) => {
        const lower = key.toLowerCase().trim();
        return lower.startsWith('git_') || _$1(lower);
    });
}
/** The `unsafe` categories that the variables in `env` trigger (e.g. GIT_SSH_COMMAND: allowUnsafeSshCommand). */
function envUnsafeCategories(env) {
    return [...new Set(ne$1(env).vulnerabilities.map((v) => v.category))].sort();
}
/** `allowEnvironment` and `unsafe` for one call with this exact environment. */
function guardOptions(env) {
    const unsafe = { ...CONFIG_UNSAFE_FLAGS };
    for (const category of envUnsafeCategories(env))
        unsafe[category] = true;
    return { allowEnvironment: guardedEnvKeys(env), unsafe };
}

// Starts one git process through simple-git (the engineering standard's git library) and returns its raw
// result: stdout as bytes, stderr as text, the real exit code. Deciding what a result means (which exit
// codes are answers) stays here too, so the runner only builds argv and environment.
//
// One simple-git instance per call: stdin (`input`), the result hook (`errors`) and the deadline (`abort`)
// are instance options, and an instance costs well under a millisecond next to the git process itself.
// simple-git's debug log prints its spawn options — the whole environment, tokens included. A DEBUG=* set to
// diagnose something else in CI must not publish them: its namespaces are always switched off.
if (createDebug.enabled('simple-git') || createDebug.enabled('simple-git:task')) {
    createDebug.enable(`${process.env.DEBUG ?? ''},-simple-git,-simple-git:*`);
}
const EMPTY = Buffer.alloc(0);
/**
 * simple-git's completion plugin waits a fixed 50 ms after a process that wrote nothing to stdout or
 * stderr, whatever `completion` says (read-tree, add, update-ref are all silent: +50 ms each). It only
 * skips the wait once it has seen a `data` event, so an empty chunk is announced when stdout ends; by
 * then every byte has been delivered, and git's exit ('close') always comes after.
 */
function announceEndOfOutput(_command, stdout) {
    stdout.once('end', () => stdout.emit('data', EMPTY));
}
/** The same, plus a listener that sees stdout as it comes (a listener that throws is ignored). */
function outputHandler(onStdout) {
    if (!onStdout)
        return announceEndOfOutput;
    return (command, stdout) => {
        stdout.on('data', (chunk) => {
            if (chunk.length === 0)
                return;
            try {
                onStdout(chunk);
            }
            catch {
                // Progress is a courtesy: it never breaks the git call.
            }
        });
        announceEndOfOutput(command, stdout);
    };
}
async function runGit(call) {
    const { args, cwd } = call;
    const input = typeof call.input === 'string' ? Buffer.from(call.input) : (call.input ?? EMPTY);
    let outcome;
    const deadline = call.timeoutMs ? new AbortController() : undefined;
    let timedOut = false;
    const options = {
        baseDir: cwd,
        binary: call.binary,
        // The runner's own semaphore bounds concurrency; each instance runs exactly one process.
        maxConcurrentProcesses: 1,
        // 'close' means every byte of stdout/stderr has arrived; 'exit' can come before the pipes drain.
        completion: { onClose: true, onExit: false },
        config: [...call.config],
        // Always a Buffer, even an empty one: simple-git leaves stdin open when the input is falsy.
        input: () => input,
        // Every outcome (exit code, bytes) lands here; returning undefined keeps simple-git from turning a
        // non-zero exit into its own error, so an allowed code (1 from `rev-parse --verify`) is an answer.
        errors: (_error, result) => {
            outcome = result;
            return undefined;
        },
        ...guardOptions(call.env),
    };
    if (deadline)
        options.abort = deadline.signal;
    const timer = deadline
        ? setTimeout(() => {
            timedOut = true;
            deadline.abort();
        }, call.timeoutMs)
        : undefined;
    try {
        let git;
        try {
            git = wo(options);
        }
        catch (error) {
            throw refused(call, error);
        }
        await git
            .env(call.env)
            .outputHandler(outputHandler(call.onStdout))
            .raw([...call.argv])
            .catch((error) => {
            // With `errors` never failing a call, a rejection means simple-git refused before starting git.
            throw refused(call, error);
        });
    }
    finally {
        clearTimeout(timer);
    }
    if (!outcome)
        throw refused(call, new Error('simple-git finished without a result'));
    const { exitCode } = outcome;
    const stderr = Buffer.concat(outcome.stdErr).toString('utf8');
    if (exitCode !== null && exitCode < 0)
        throw couldNotStart(call, exitCode, stderr);
    if (exitCode === 0 || (exitCode !== null && call.okExitCodes?.includes(exitCode))) {
        return { stdout: Buffer.concat(outcome.stdOut), stderr, exitCode };
    }
    // simple-git ends a timed-out process with SIGINT; which signal ended any other process is not reported.
    const signal = exitCode === null && timedOut ? 'SIGINT' : null;
    const details = { args, cwd, exitCode, signal, stderr };
    if (timedOut) {
        throw new GitError(details, `git ${args.join(' ')} timed out after ${call.timeoutMs} ms and was killed`);
    }
    if (exitCode === null)
        throw new GitError(details, `git ${args.join(' ')} was killed by a signal in ${cwd}`);
    throw new GitError(details);
}
/** simple-git would not run the command (a guard, a bad binary or a missing directory): git never started. */
function refused(call, error) {
    const message = error instanceof Error ? error.message : String(error);
    return new GitError({ args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '', cause: error }, `could not run git ${call.args.join(' ')} in ${call.cwd}: ${message.trim()}`);
}
/**
 * The process never started (Node reports a negative errno as the exit code and simple-git puts the
 * spawn error's stack on stderr).
 */
function couldNotStart(call, errno, stderr) {
    const code = require$$0$1.getSystemErrorName(errno);
    const message = (stderr.split('\n')[0] ?? '').replace(/^Error: /, '') || `spawn ${call.binary} ${code}`;
    const cause = Object.assign(new Error(message), { code, errno });
    const hint = code === 'ENOENT' ? ` (is git installed and on PATH? looked for "${call.binary}")` : '';
    return new GitError({ args: call.args, cwd: call.cwd, exitCode: null, signal: null, stderr: '', cause }, `could not run git ${call.args.join(' ')}: ${message}${hint}`);
}

// A long-lived git process spoken to through stdin/stdout: `update-ref --stdin` (one transaction per
// checkpoint) and `hash-object --stdin-paths` (one commit object per checkpoint). A session takes a
// checkpoint every few seconds, and each one-shot git call costs a fork of proctor itself — Node's spawn
// blocks the event loop for ~1 ms per 50 MB of proctor's memory, before git has even started — so the two
// calls that are the same every time are answered by one process each for the whole session.
//
// simple-git (exec.ts) runs every other git call, but it writes stdin once when it spawns and then closes
// it; a conversation needs the pipe kept open, so this module spawns git itself, with the invocation the
// runner built (same sanitized environment, same `-c` settings).
//
// The process is unref'd while idle, so a forgotten stream never keeps proctor alive; if proctor dies,
// git reads end-of-file and exits on its own.
/** How long `close()` waits for git to exit after end-of-file before killing it. */
const CLOSE_GRACE_MS = 2000;
/**
 * An answer that takes longer than this means git is stuck (these commands answer in milliseconds; a
 * ref lock is given up after 100 ms): git is killed and the caller falls back to one-shot calls.
 */
const ANSWER_TIMEOUT_MS = 30_000;
class GitStream {
    child;
    call;
    stdout = '';
    stderr = '';
    exited = null;
    exit;
    pending = null;
    queue = Promise.resolve();
    constructor(call) {
        this.call = call;
        const argv = [...call.config.flatMap((setting) => ['-c', setting]), ...call.argv];
        this.child = spawn(call.binary, argv, { cwd: call.cwd, env: call.env, stdio: 'pipe' });
        this.child.stdout.setEncoding('utf8');
        this.child.stderr.setEncoding('utf8');
        this.child.stdout.on('data', (chunk) => {
            this.stdout += chunk;
            this.deliver();
        });
        this.child.stderr.on('data', (chunk) => {
            // Only the tail is kept for error messages.
            this.stderr = (this.stderr + chunk).slice(-8192);
        });
        // A write after git died is reported by the 'close' below, not as an unhandled EPIPE.
        this.child.stdin.on('error', () => undefined);
        this.exit = new Promise((resolve) => {
            const settle = (code, signal, what) => {
                if (this.exited)
                    return;
                this.exited = { code, signal };
                this.fail(this.failure(what));
                resolve();
            };
            // A git that cannot be started (ENOENT) may report only 'error'.
            this.child.on('error', (error) => {
                this.stderr += `${error.message}\n`;
                if (this.child.pid === undefined)
                    settle(null, null, 'could not start');
            });
            this.child.on('close', (code, signal) => settle(code, signal, 'exited'));
        });
        this.idle();
    }
    /** Whether the process is still there to take requests. */
    get alive() {
        return this.exited === null && !this.child.stdin.writableEnded;
    }
    /**
     * Write `input` and resolve with the next `lines` lines of output. Requests are answered in order; if
     * git exits first, rejects with a GitError carrying its exit code and stderr.
     */
    request(input, lines) {
        const run = this.queue.then(() => this.exchange(input, lines));
        this.queue = run.catch(() => undefined);
        return run;
    }
    /** End stdin and wait for git to exit (killed after a grace period if it does not). */
    async close() {
        await this.queue;
        if (this.exited)
            return;
        // Every handle must keep the loop alive until 'close': git may exit before its pipes reach end-of-file.
        this.busy();
        this.child.stdin.end();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), CLOSE_GRACE_MS);
        timer.unref();
        await this.exit;
        clearTimeout(timer);
    }
    exchange(input, lines) {
        if (!this.alive)
            return Promise.reject(this.failure('is not running'));
        this.busy();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), ANSWER_TIMEOUT_MS);
        return new Promise((resolve, reject) => {
            this.pending = { lines, resolve, reject };
            this.child.stdin.write(input);
            this.deliver();
        }).finally(() => {
            clearTimeout(timer);
            this.idle();
        });
    }
    deliver() {
        const pending = this.pending;
        if (!pending)
            return;
        const all = this.stdout.split('\n');
        if (all.length - 1 < pending.lines)
            return;
        this.pending = null;
        this.stdout = all.slice(pending.lines).join('\n');
        pending.resolve(all.slice(0, pending.lines));
    }
    fail(error) {
        const pending = this.pending;
        this.pending = null;
        pending?.reject(error);
    }
    failure(what) {
        const exited = this.exited ?? { code: null, signal: null };
        return new GitError({
            args: this.call.args,
            cwd: this.call.cwd,
            exitCode: exited.code,
            signal: exited.signal,
            stderr: this.stderr,
        }, `git ${this.call.args.join(' ')} ${what}` +
            (exited.code !== null ? ` (exit code ${exited.code})` : exited.signal ? ` (${exited.signal})` : '') +
            ` in ${this.call.cwd}`);
    }
    // While a request waits for its answer the process keeps proctor alive; while idle it does not.
    busy() {
        this.child.ref();
        socket(this.child.stdout).ref();
        socket(this.child.stderr).ref();
    }
    idle() {
        this.child.unref();
        for (const pipe of [this.child.stdin, this.child.stdout, this.child.stderr])
            socket(pipe).unref();
    }
}
/** A child's stdio pipes are sockets (typed as plain streams), which can be unref'd. */
function socket(pipe) {
    return pipe;
}

// Parsers for git's NUL-separated (-z) output. Paths are taken byte-for-byte as git prints them with -z:
// no quoting, so spaces, newlines, tabs, unicode and leading dashes come through intact.
/** Split -z output into fields, dropping the empty field after the final NUL. */
function splitNul(output) {
    if (output === '')
        return [];
    const fields = output.split('\0');
    if (fields[fields.length - 1] === '')
        fields.pop();
    return fields;
}
/** `git status --porcelain=v1 -z`: "XY path\0" and for renames/copies "XY new\0old\0". */
function parseStatusZ(output) {
    const fields = splitNul(output);
    const entries = [];
    for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        const xy = field.slice(0, 2);
        const entry = { xy, path: field.slice(3) };
        if (xy[0] === 'R' || xy[0] === 'C' || xy[1] === 'R' || xy[1] === 'C')
            entry.origPath = fields[++i];
        entries.push(entry);
    }
    return entries;
}
/**
 * Output of `diff-tree -r -z --raw --numstat`: first every raw record (":mode mode sha sha S\0path\0"
 * plus "\0new" for renames), then every numstat record ("a\td\tpath\0", or "a\td\t\0old\0new\0" for
 * renames; "-" counts mean binary).
 */
function parseRawNumstatZ(output) {
    const fields = splitNul(output);
    const raw = [];
    const numstat = [];
    for (let i = 0; i < fields.length; i++) {
        const field = fields[i];
        if (field.startsWith(':')) {
            const [oldMode, newMode, oldSha, newSha, statusField] = field.slice(1).split(' ');
            const status = (statusField ?? '').charAt(0);
            const scoreText = (statusField ?? '').slice(1);
            const entry = {
                oldMode: oldMode,
                newMode: newMode,
                oldSha: oldSha,
                newSha: newSha,
                status,
                score: scoreText ? Number(scoreText) : null,
                path: fields[++i],
            };
            if (status === 'R' || status === 'C') {
                entry.oldPath = entry.path;
                entry.path = fields[++i];
            }
            raw.push(entry);
            continue;
        }
        const [added, deleted, path] = splitTabs(field);
        const entry = { added: count(added), deleted: count(deleted), path };
        if (path === '') {
            entry.oldPath = fields[++i];
            entry.path = fields[++i];
        }
        numstat.push(entry);
    }
    return { raw, numstat };
}
function splitTabs(field) {
    const first = field.indexOf('\t');
    const second = field.indexOf('\t', first + 1);
    return [field.slice(0, first), field.slice(first + 1, second), field.slice(second + 1)];
}
function count(text) {
    return text === '-' ? null : Number(text);
}
/** `git ls-files -s -z`: "mode sha stage\tpath\0". */
function parseLsFilesStageZ(output) {
    return splitNul(output).map((field) => {
        const tab = field.indexOf('\t');
        const [mode, sha, stage] = field.slice(0, tab).split(' ');
        return { mode: mode, sha: sha, stage: Number(stage), path: field.slice(tab + 1) };
    });
}
/** `git ls-tree -r -z --long`: "mode type sha size\tpath\0" (size "-" for trees and gitlinks). */
function parseLsTreeLongZ(output) {
    return splitNul(output).map((field) => {
        const tab = field.indexOf('\t');
        const [mode, type, sha, size] = field
            .slice(0, tab)
            .split(' ')
            .filter((part) => part !== '');
        return {
            mode: mode,
            type: type,
            sha: sha,
            size: size === '-' ? null : Number(size),
            path: field.slice(tab + 1),
        };
    });
}
/** `git check-attr -z <attr> -- paths`: "path\0attr\0value\0" triples. */
function parseCheckAttrZ(output) {
    const fields = splitNul(output);
    const values = new Map();
    for (let i = 0; i + 2 < fields.length; i += 3) {
        values.set(fields[i], fields[i + 2]);
    }
    return values;
}
/** `git push --porcelain`: lines "<flag>\t<from>:<to>\t<summary>" between "To <url>" and "Done". */
function parsePushPorcelain(output) {
    const results = [];
    for (const line of output.split('\n')) {
        const match = /^([ +\-*=!])\t([^\t]*)\t(.*)$/.exec(line);
        if (!match)
            continue;
        const [, flag, refs, summary] = match;
        const colon = refs.lastIndexOf(':');
        results.push({
            status: PUSH_FLAGS[flag],
            from: refs.slice(0, colon),
            to: refs.slice(colon + 1),
            summary: summary,
        });
    }
    return results;
}
const PUSH_FLAGS = {
    ' ': 'ok',
    '+': 'forced',
    '*': 'new',
    '-': 'deleted',
    '!': 'rejected',
    '=': 'up-to-date',
};

// THE one git runner: every git process proctor starts goes through `Git.exec` (one-shot calls) or
// `Git.stream` (the two long-lived processes a checkpointing session talks to, stream.ts). Argv arrays only (no
// shell), a sanitized environment, our `-c` settings, `GIT_INDEX_FILE` only per call for a private index,
// NUL-separated output, and errors that carry the argv, exit code and stderr tail.
//
// The process itself is started by simple-git (exec.ts), one instance per call, configured so that it
// adds nothing and hides nothing:
// - `completion: { onClose: true, onExit: false }`: a result is read only after stdout/stderr are drained;
//   plus an empty chunk at the end of stdout, because simple-git otherwise waits a fixed 50 ms after every
//   silent command (read-tree, add, update-ref), which alone would break the checkpoint budget.
// - `errors` records the exit code and the raw stdout/stderr bytes and never fails the call, so blobs stay
//   bytes and allowed exit codes (`okExitCodes`) are answers; GitError is built here, as before.
// - `input` always returns a Buffer (possibly empty): simple-git closes stdin only when given content.
// - `.env(fullEnv)` with `allowEnvironment` = exactly the guarded keys present, and `unsafe` = what those
//   keys and our own `-c core.hooksPath/core.fsmonitor` need (guard.ts); nothing is silently stripped.
// - `abort` (an AbortController on a timer) for `timeoutMs`: a total deadline; simple-git kills with SIGINT.
// - `maxConcurrentProcesses: 1` per instance; this class's semaphore is the one concurrency limit.
const ZERO_OID_SHA1 = '0000000000000000000000000000000000000000';
const ARG_CHUNK = 2000;
class Git {
    cwd;
    binary;
    env;
    maxConcurrent;
    running = 0;
    waiting = [];
    identity;
    emptyTreeSha;
    constructor(options) {
        this.cwd = path.resolve(options.cwd);
        this.binary = options.binary ?? 'git';
        this.env = sanitizedGitEnv(options.env ?? process.env);
        this.maxConcurrent = Math.max(1, options.maxConcurrent ?? 6);
    }
    /** A runner for another directory (a worktree, a bare remote) with the same settings. */
    at(cwd) {
        const other = new Git({ cwd, binary: this.binary, maxConcurrent: this.maxConcurrent, env: {} });
        Object.assign(other.env, this.env);
        return other;
    }
    /** The escape hatch: any git command, text output. Throws GitError unless the exit code is 0 or allowed. */
    async raw(args, options = {}) {
        const result = await this.exec(args, options);
        return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, exitCode: result.exitCode };
    }
    /** Like raw, with stdout as bytes (blob contents). */
    async exec(args, options = {}) {
        await this.acquire();
        try {
            return await this.spawnGit(args, options);
        }
        finally {
            this.release();
        }
    }
    // ---- repository facts -------------------------------------------------------------------------
    /** The commit/object a revision names, or null when it does not resolve. */
    async revParse(rev) {
        const result = await this.raw(['rev-parse', '--verify', '--quiet', '--end-of-options', rev], {
            okExitCodes: [1],
        });
        return result.exitCode === 0 ? result.stdout.trim() : null;
    }
    /** HEAD's commit, or null on an unborn branch. */
    headCommit() {
        return this.revParse('HEAD^{commit}');
    }
    async topLevel() {
        return (await this.raw(['rev-parse', '--show-toplevel'])).stdout.replace(/\n$/, '');
    }
    /** Absolute path of a file inside this worktree's git dir (`--git-path`, so linked worktrees work). */
    async gitPath(name) {
        const out = (await this.raw(['rev-parse', '--git-path', name])).stdout.replace(/\n$/, '');
        return path.resolve(this.cwd, out);
    }
    /** Absolute per-worktree git dir. */
    async gitDir() {
        const out = (await this.raw(['rev-parse', '--git-dir'])).stdout.replace(/\n$/, '');
        return path.resolve(this.cwd, out);
    }
    async isShallow() {
        return (await this.raw(['rev-parse', '--is-shallow-repository'])).stdout.trim() === 'true';
    }
    /** The all-zero object id of this repository's hash algorithm (sha1 or sha256). */
    async zeroOid() {
        return '0'.repeat((await this.emptyTree()).length) || ZERO_OID_SHA1;
    }
    /** The id of the empty tree in this repository's hash algorithm. */
    emptyTree() {
        this.emptyTreeSha ??= this.raw(['hash-object', '-t', 'tree', '--stdin'], { input: '' }).then((r) => r.stdout.trim());
        return this.emptyTreeSha;
    }
    async remoteUrl(name) {
        const result = await this.raw(['remote', 'get-url', '--', name], { okExitCodes: [2, 128] });
        return result.exitCode === 0 ? result.stdout.trim() : null;
    }
    async remotes() {
        return (await this.raw(['remote'])).stdout.split('\n').filter((line) => line !== '');
    }
    async configGet(key) {
        const result = await this.raw(['config', '--get', '--', key], { okExitCodes: [1] });
        return result.exitCode === 0 ? result.stdout.replace(/\n$/, '') : null;
    }
    // ---- index and tree plumbing (always on a private index) --------------------------------------
    /** Load a tree into the private index: `--reset` keeps stat data of matching entries; null = empty. */
    async readTree(indexFile, treeish, options = {}) {
        const args = ['read-tree'];
        if (treeish === null)
            args.push('--empty');
        else {
            if (options.reset)
                args.push('--reset');
            args.push(treeish);
        }
        await this.raw(args, { indexFile });
    }
    /**
     * `add -A` of the whole worktree into the private index, honouring .gitignore. Excluded paths are
     * passed as literal exclude pathspecs through stdin, so no path is ever parsed as an option or glob.
     */
    async addAll(indexFile, options = {}) {
        const specs = [':(top)', ...(options.exclude ?? []).map((p) => `:(top,literal,exclude)${p}`)];
        await this.raw(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], {
            indexFile,
            input: specs.join('\0') + '\0',
        });
    }
    /** Remove paths from the private index only (the files stay). */
    async removeCached(indexFile, paths) {
        if (paths.length === 0)
            return;
        await this.raw(['rm', '--cached', '-r', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], {
            indexFile,
            input: paths.map((p) => `:(top,literal)${p}`).join('\0') + '\0',
        });
    }
    async writeTree(indexFile) {
        return (await this.raw(['write-tree'], { indexFile })).stdout.trim();
    }
    /** Create a commit object; identity falls back to proctor's only when the user has none. */
    async commitTree(tree, parents, message) {
        const args = ['commit-tree', '--no-gpg-sign'];
        for (const parent of parents)
            args.push('-p', parent);
        args.push('-F', '-', tree);
        const result = await this.raw(args, { input: message, env: await this.identityEnv() });
        return result.stdout.trim();
    }
    /**
     * Move `ref` to `newSha` only if it still points at `oldSha` (null: only if it does not exist).
     * Throws RefMovedError when someone else moved it.
     */
    async updateRefCas(ref, newSha, oldSha, reason = 'proctor') {
        const expected = oldSha ?? (await this.zeroOid());
        const args = ['update-ref', '-m', reason, '--end-of-options', ref, newSha, expected];
        const result = await this.exec(args, { okExitCodes: [1, 128] });
        if (result.exitCode !== 0) {
            const details = { args, cwd: this.cwd, exitCode: result.exitCode, signal: null, stderr: result.stderr };
            const current = await this.revParse(ref);
            if (current !== oldSha)
                throw new RefMovedError(ref, oldSha, details);
            throw new GitError(details);
        }
    }
    async deleteRef(ref, oldSha) {
        const args = ['update-ref', '-d', '--end-of-options', ref];
        if (oldSha)
            args.push(oldSha);
        await this.raw(args);
    }
    /** Refs under a prefix with the objects they point at. */
    async forEachRef(prefix) {
        const out = (await this.raw(['for-each-ref', '--format=%(objectname) %(refname)', '--', prefix])).stdout;
        return out
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => ({ sha: line.slice(0, line.indexOf(' ')), ref: line.slice(line.indexOf(' ') + 1) }));
    }
    /** `ls-files -z` of the user's index (or a private one): tracked paths, or untracked with `others`. */
    async lsFiles(options = {}) {
        const args = ['ls-files', '-z', '--full-name'];
        if (options.others)
            args.push('--others');
        if (options.ignored)
            args.push('--ignored');
        if (options.excludeStandard)
            args.push('--exclude-standard');
        const call = {};
        if (options.indexFile)
            call.indexFile = options.indexFile;
        return splitNul((await this.raw(args, call)).stdout);
    }
    async lsFilesStage(indexFile) {
        const call = {};
        if (indexFile)
            call.indexFile = indexFile;
        return parseLsFilesStageZ((await this.raw(['ls-files', '-s', '-z', '--full-name'], call)).stdout);
    }
    /** Whether the index has assume-unchanged or skip-worktree entries (their stat data cannot be trusted). */
    async hasHiddenIndexEntries(indexFile) {
        const call = {};
        if (indexFile)
            call.indexFile = indexFile;
        const fields = splitNul((await this.raw(['ls-files', '-v', '-z'], call)).stdout);
        return fields.some((field) => /^[a-zS] /.test(field));
    }
    async lsTree(treeish, paths = []) {
        const args = ['ls-tree', '-r', '-z', '--long', '--full-tree', '--end-of-options', treeish];
        if (paths.length > 0)
            args.push('--', ...paths.map((p) => `:(top,literal)${p}`));
        return parseLsTreeLongZ((await this.raw(args)).stdout);
    }
    /** Working-tree status without refreshing (or rewriting) the user's index. */
    async statusZ(options = {}) {
        const args = ['status', '--porcelain=v1', '-z', `--untracked-files=${options.untracked ?? 'all'}`];
        const result = await this.raw(args, { globalArgs: ['--no-optional-locks'] });
        return parseStatusZ(result.stdout);
    }
    /** Raw + numstat diff between two trees (or commits), renames detected. */
    async diffTreeZ(from, to, options = {}) {
        const args = [
            'diff-tree',
            '-r',
            '-z',
            '--raw',
            '--numstat',
            '--no-abbrev',
            '--no-ext-diff',
            '--no-textconv',
        ];
        args.push(options.renames === false ? '--no-renames' : '-M');
        args.push('--end-of-options', from, to);
        return parseRawNumstatZ((await this.raw(args)).stdout);
    }
    /** Type and size of many objects in one process; null for objects that do not exist. */
    async catFileInfo(objects) {
        const info = new Map();
        if (objects.length === 0)
            return info;
        const unique = [...new Set(objects)];
        const result = await this.raw(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], {
            input: unique.join('\n') + '\n',
        });
        const lines = result.stdout.split('\n');
        unique.forEach((object, i) => {
            const parts = (lines[i] ?? '').split(' ');
            info.set(object, parts[1] === 'missing' || parts.length < 3 ? null : { type: parts[1], size: Number(parts[2]) });
        });
        return info;
    }
    /** Object ids for many revisions in one process (e.g. `HEAD^{tree}`); null for those that do not resolve. */
    async resolveObjects(revs) {
        const result = await this.raw(['cat-file', '--batch-check=%(objectname)'], {
            input: revs.join('\n') + '\n',
        });
        const lines = result.stdout.split('\n');
        return revs.map((_, i) => {
            const line = lines[i] ?? '';
            return /^[0-9a-f]{40,64}$/.test(line) ? line : null;
        });
    }
    async catFileSize(object) {
        return (await this.catFileInfo([object])).get(object)?.size ?? null;
    }
    async catFileBlob(object) {
        return (await this.exec(['cat-file', 'blob', object])).stdout;
    }
    /** The subset of `paths` that .gitignore (and info/exclude, core.excludesFile) ignores. */
    async checkIgnore(paths) {
        const ignored = new Set();
        for (let i = 0; i < paths.length; i += ARG_CHUNK) {
            const chunk = paths.slice(i, i + ARG_CHUNK);
            const result = await this.raw(['check-ignore', '-z', '--no-index', '--stdin'], {
                input: chunk.join('\0') + '\0',
                okExitCodes: [1],
            });
            for (const p of splitNul(result.stdout))
                ignored.add(p);
        }
        return ignored;
    }
    /** The value of one attribute for each path ("unspecified", "set", "unset" or the value). */
    async checkAttr(attr, paths, indexFile) {
        const values = new Map();
        for (let i = 0; i < paths.length; i += ARG_CHUNK) {
            const chunk = paths.slice(i, i + ARG_CHUNK);
            const call = { input: chunk.join('\0') + '\0' };
            if (indexFile)
                call.indexFile = indexFile;
            const result = await this.raw(['check-attr', '-z', '--stdin', attr], call);
            for (const [p, value] of parseCheckAttrZ(result.stdout))
                values.set(p, value);
        }
        return values;
    }
    /** Write index entries to the worktree (all, or the given paths) without touching the user's index. */
    async checkoutIndex(indexFile, paths) {
        if (paths === 'all') {
            await this.raw(['checkout-index', '-a', '-f'], { indexFile });
            return;
        }
        if (paths.length === 0)
            return;
        await this.raw(['checkout-index', '-f', '-z', '--stdin'], { indexFile, input: paths.join('\0') + '\0' });
    }
    // ---- network and sharing -----------------------------------------------------------------------
    /** Push refspecs; never forces. A rejection is an outcome (ok=false), not a throw. */
    async push(remote, refspecs, options = {}) {
        for (const spec of refspecs) {
            if (spec.startsWith('+'))
                throw new Error(`refusing to force-push ${spec}: proctor only fast-forwards`);
        }
        const args = [
            'push',
            '--porcelain',
            '--no-verify',
            ...(options.extraArgs ?? []),
            '--',
            remote,
            ...refspecs,
        ];
        const call = { okExitCodes: [1, 128] };
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        if (options.secretConfig)
            call.secretConfig = options.secretConfig;
        const result = await this.raw(args, call);
        const refs = parsePushPorcelain(result.stdout);
        const ok = result.exitCode === 0 && refs.every((r) => r.status !== 'rejected');
        return { ok, exitCode: result.exitCode, refs, stderr: result.stderr };
    }
    /** Fetch refspecs; with `depth` only that much history comes down (never unshallows). */
    async fetch(remote, refspecs, options = {}) {
        const args = ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules'];
        if (options.depth)
            args.push(`--depth=${options.depth}`);
        args.push('--', remote, ...refspecs);
        const call = {};
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        if (options.secretConfig)
            call.secretConfig = options.secretConfig;
        return this.raw(args, call);
    }
    /** `git ls-remote` of one ref: its object id, or null when the remote lacks it. */
    async lsRemote(remote, ref, options = {}) {
        const call = {};
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        const out = (await this.raw(['ls-remote', '--', remote, ref], call)).stdout;
        const line = out.split('\n').find((l) => l.endsWith(`\t${ref}`));
        return line ? line.slice(0, line.indexOf('\t')) : null;
    }
    async bundleCreate(file, revs) {
        await this.raw(['bundle', 'create', '--quiet', file, ...revs]);
    }
    async worktreeAdd(dir, commitish, options = {}) {
        const args = ['worktree', 'add', '--quiet'];
        if (options.detach ?? true)
            args.push('--detach');
        args.push('--', dir, commitish);
        await this.raw(args);
    }
    async worktreeRemove(dir, options = {}) {
        const args = ['worktree', 'remove'];
        if (options.force)
            args.push('--force');
        args.push('--', dir);
        await this.raw(args);
    }
    // ---- internals ---------------------------------------------------------------------------------
    /**
     * Author/committer environment for our commits: the user's own identity when git has one (config or
     * GIT_AUTHOR_* / GIT_COMMITTER_*), else `proctor <proctor@localhost>`; a CI runner without
     * user.name must not make checkpoints fail.
     */
    async identityEnv() {
        return (await this.identityProbe()).env;
    }
    /**
     * Who our commits are by, as `git commit-tree` would write it: `Name <email>` per role, and the date
     * only when GIT_AUTHOR_DATE / GIT_COMMITTER_DATE pins it (otherwise each commit takes the time it is made).
     */
    async commitIdents() {
        return (await this.identityProbe()).idents;
    }
    identityProbe() {
        this.identity ??= (async () => {
            const env = {};
            const probe = (role, config, extra = {}) => this.raw(['var', `GIT_${role}_IDENT`], { config, env: extra, okExitCodes: [128, 1] });
            const idents = await Promise.all(['AUTHOR', 'COMMITTER'].map(async (role) => {
                let result = await probe(role, ['user.useConfigOnly=true']);
                if (result.exitCode !== 0) {
                    env[`GIT_${role}_NAME`] = FALLBACK_IDENTITY.name;
                    env[`GIT_${role}_EMAIL`] = FALLBACK_IDENTITY.email;
                    result = await probe(role, [], {
                        [`GIT_${role}_NAME`]: FALLBACK_IDENTITY.name,
                        [`GIT_${role}_EMAIL`]: FALLBACK_IDENTITY.email,
                    });
                }
                const line = result.stdout.trim();
                const match = /^(.* <[^<>]*>) (\d+ [+-]\d{4})$/.exec(line);
                if (result.exitCode !== 0 || !match) {
                    throw new GitError({
                        args: ['var', `GIT_${role}_IDENT`],
                        cwd: this.cwd,
                        exitCode: result.exitCode,
                        signal: null,
                        stderr: result.stderr,
                    }, `git var GIT_${role}_IDENT gave no usable identity ("${line}")`);
                }
                return { name: match[1], date: this.env[`GIT_${role}_DATE`] ? match[2] : null };
            }));
            return { env, idents: { author: idents[0], committer: idents[1] } };
        })();
        return this.identity;
    }
    /**
     * A long-lived git process for a request/answer conversation (`update-ref --stdin`,
     * `hash-object --stdin-paths`), with the same environment and settings as every other call.
     */
    stream(args, options = {}) {
        return new GitStream(this.invocation(args, options));
    }
    spawnGit(args, options) {
        return runGit(this.invocation(args, options));
    }
    invocation(args, options) {
        const env = { ...this.env, ...options.env };
        if (options.indexFile)
            env.GIT_INDEX_FILE = options.indexFile;
        if (options.secretConfig)
            Object.assign(env, configEnv(env, options.secretConfig));
        const call = {
            binary: this.binary,
            cwd: options.cwd ?? this.cwd,
            env,
            config: [...BASE_CONFIG, ...(options.indexFile ? PRIVATE_INDEX_CONFIG : []), ...(options.config ?? [])],
            argv: [...(options.globalArgs ?? []), ...args],
            args,
        };
        if (options.input !== undefined)
            call.input = options.input;
        if (options.okExitCodes)
            call.okExitCodes = options.okExitCodes;
        if (options.onStdout)
            call.onStdout = options.onStdout;
        if (options.timeoutMs)
            call.timeoutMs = options.timeoutMs;
        return call;
    }
    async acquire() {
        if (this.running < this.maxConcurrent) {
            this.running++;
            return;
        }
        await new Promise((resolve) => this.waiting.push(resolve));
    }
    release() {
        const next = this.waiting.shift();
        if (next)
            next();
        else
            this.running--;
    }
}

export { Git as G, RefMovedError as R, GitError as a, persistedCredentialKeys as p, requireSrc$1 as r, splitNul as s, tokenHeaderConfig as t };
