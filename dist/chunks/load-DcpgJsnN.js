import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { readFileSync, existsSync, statSync } from 'node:fs';
import { resolve, join, relative } from 'node:path';
import { p as parseDuration, g as parseSize, a as findRepoRoot } from './units-uesZE-n4.js';
import { ConfigError, formatIssue, formatPath } from './errors-7nusPbhT.js';
import require$$0 from 'process';
import require$$0$1 from 'buffer';
import { a as getDefaultExportFromCjs } from './_commonjsHelpers-eQonu12B.js';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { r as remoteBranchFor, e as checkPolicyConfig } from './refs-MgMT0USI.js';
import { a as agentPresetChoices, f as findAgentPreset } from './index-DfcMis9c.js';

var safeRegex2 = {exports: {}};

var dist$2 = {exports: {}};

var types$1 = {};

var tokens = {};

var hasRequiredTokens;

function requireTokens () {
	if (hasRequiredTokens) return tokens;
	hasRequiredTokens = 1;
	Object.defineProperty(tokens, "__esModule", { value: true });
	
	return tokens;
}

var types = {};

var hasRequiredTypes$1;

function requireTypes$1 () {
	if (hasRequiredTypes$1) return types;
	hasRequiredTypes$1 = 1;
	Object.defineProperty(types, "__esModule", { value: true });
	types.types = void 0;
	var types$1;
	(function (types) {
	    types[types["ROOT"] = 0] = "ROOT";
	    types[types["GROUP"] = 1] = "GROUP";
	    types[types["POSITION"] = 2] = "POSITION";
	    types[types["SET"] = 3] = "SET";
	    types[types["RANGE"] = 4] = "RANGE";
	    types[types["REPETITION"] = 5] = "REPETITION";
	    types[types["REFERENCE"] = 6] = "REFERENCE";
	    types[types["CHAR"] = 7] = "CHAR";
	})(types$1 || (types.types = types$1 = {}));
	
	return types;
}

var setLookup = {};

var hasRequiredSetLookup;

function requireSetLookup () {
	if (hasRequiredSetLookup) return setLookup;
	hasRequiredSetLookup = 1;
	Object.defineProperty(setLookup, "__esModule", { value: true });
	
	return setLookup;
}

var hasRequiredTypes;

function requireTypes () {
	if (hasRequiredTypes) return types$1;
	hasRequiredTypes = 1;
	(function (exports) {
		var __createBinding = (types$1 && types$1.__createBinding) || (Object.create ? (function(o, m, k, k2) {
		    if (k2 === undefined) k2 = k;
		    var desc = Object.getOwnPropertyDescriptor(m, k);
		    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
		      desc = { enumerable: true, get: function() { return m[k]; } };
		    }
		    Object.defineProperty(o, k2, desc);
		}) : (function(o, m, k, k2) {
		    if (k2 === undefined) k2 = k;
		    o[k2] = m[k];
		}));
		var __exportStar = (types$1 && types$1.__exportStar) || function(m, exports) {
		    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
		};
		Object.defineProperty(exports, "__esModule", { value: true });
		__exportStar(requireTokens(), exports);
		__exportStar(requireTypes$1(), exports);
		__exportStar(requireSetLookup(), exports);
		
	} (types$1));
	return types$1;
}

var tokenizer = {};

var util = {};

var sets = {};

var hasRequiredSets;

function requireSets () {
	if (hasRequiredSets) return sets;
	hasRequiredSets = 1;
	Object.defineProperty(sets, "__esModule", { value: true });
	sets.anyChar = sets.notWhitespace = sets.whitespace = sets.notInts = sets.ints = sets.notWords = sets.words = void 0;
	const types_1 = requireTypes();
	const INTS = () => [{ type: types_1.types.RANGE, from: 48, to: 57 }];
	const WORDS = () => [
	    { type: types_1.types.CHAR, value: 95 },
	    { type: types_1.types.RANGE, from: 97, to: 122 },
	    { type: types_1.types.RANGE, from: 65, to: 90 },
	    { type: types_1.types.RANGE, from: 48, to: 57 },
	];
	const WHITESPACE = () => [
	    { type: types_1.types.CHAR, value: 9 },
	    { type: types_1.types.CHAR, value: 10 },
	    { type: types_1.types.CHAR, value: 11 },
	    { type: types_1.types.CHAR, value: 12 },
	    { type: types_1.types.CHAR, value: 13 },
	    { type: types_1.types.CHAR, value: 32 },
	    { type: types_1.types.CHAR, value: 160 },
	    { type: types_1.types.CHAR, value: 5760 },
	    { type: types_1.types.RANGE, from: 8192, to: 8202 },
	    { type: types_1.types.CHAR, value: 8232 },
	    { type: types_1.types.CHAR, value: 8233 },
	    { type: types_1.types.CHAR, value: 8239 },
	    { type: types_1.types.CHAR, value: 8287 },
	    { type: types_1.types.CHAR, value: 12288 },
	    { type: types_1.types.CHAR, value: 65279 },
	];
	const NOTANYCHAR = () => [
	    { type: types_1.types.CHAR, value: 10 },
	    { type: types_1.types.CHAR, value: 13 },
	    { type: types_1.types.CHAR, value: 8232 },
	    { type: types_1.types.CHAR, value: 8233 },
	];
	// Predefined class objects.
	const words = () => ({ type: types_1.types.SET, set: WORDS(), not: false });
	sets.words = words;
	const notWords = () => ({ type: types_1.types.SET, set: WORDS(), not: true });
	sets.notWords = notWords;
	const ints = () => ({ type: types_1.types.SET, set: INTS(), not: false });
	sets.ints = ints;
	const notInts = () => ({ type: types_1.types.SET, set: INTS(), not: true });
	sets.notInts = notInts;
	const whitespace = () => ({ type: types_1.types.SET, set: WHITESPACE(), not: false });
	sets.whitespace = whitespace;
	const notWhitespace = () => ({ type: types_1.types.SET, set: WHITESPACE(), not: true });
	sets.notWhitespace = notWhitespace;
	const anyChar = () => ({ type: types_1.types.SET, set: NOTANYCHAR(), not: true });
	sets.anyChar = anyChar;
	
	return sets;
}

var hasRequiredUtil;

function requireUtil () {
	if (hasRequiredUtil) return util;
	hasRequiredUtil = 1;
	var __createBinding = (util && util.__createBinding) || (Object.create ? (function(o, m, k, k2) {
	    if (k2 === undefined) k2 = k;
	    var desc = Object.getOwnPropertyDescriptor(m, k);
	    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
	      desc = { enumerable: true, get: function() { return m[k]; } };
	    }
	    Object.defineProperty(o, k2, desc);
	}) : (function(o, m, k, k2) {
	    if (k2 === undefined) k2 = k;
	    o[k2] = m[k];
	}));
	var __setModuleDefault = (util && util.__setModuleDefault) || (Object.create ? (function(o, v) {
	    Object.defineProperty(o, "default", { enumerable: true, value: v });
	}) : function(o, v) {
	    o["default"] = v;
	});
	var __importStar = (util && util.__importStar) || (function () {
	    var ownKeys = function(o) {
	        ownKeys = Object.getOwnPropertyNames || function (o) {
	            var ar = [];
	            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
	            return ar;
	        };
	        return ownKeys(o);
	    };
	    return function (mod) {
	        if (mod && mod.__esModule) return mod;
	        var result = {};
	        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
	        __setModuleDefault(result, mod);
	        return result;
	    };
	})();
	Object.defineProperty(util, "__esModule", { value: true });
	util.tokenizeClass = util.strToChars = void 0;
	const types_1 = requireTypes();
	const sets = __importStar(requireSets());
	const CTRL = '@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^ ?';
	/**
	 * Finds character representations in str and convert all to
	 * their respective characters.
	 *
	 * @param {string} str
	 * @returns {string}
	 */
	const strToChars = (str) => {
	    const charsRegex = /(\[\\b\])|(\\)?\\(?:u([A-F0-9]{4})|x([A-F0-9]{2})|c([@A-Z[\\\]^?])|([0tnvfr]))/g;
	    return str.replace(charsRegex, (s, b, lbs, a16, b16, dctrl, eslsh) => {
	        if (lbs) {
	            return s;
	        }
	        let code = b ? 8 :
	            a16 ? parseInt(a16, 16) :
	                b16 ? parseInt(b16, 16) :
	                    dctrl ? CTRL.indexOf(dctrl) : {
	                        0: 0,
	                        t: 9,
	                        n: 10,
	                        v: 11,
	                        f: 12,
	                        r: 13,
	                    }[eslsh];
	        let c = String.fromCharCode(code);
	        // Escape special regex characters.
	        return /[[\]{}^$.|?*+()]/.test(c) ? `\\${c}` : c;
	    });
	};
	util.strToChars = strToChars;
	/**
	 * Turns class into tokens
	 * reads str until it encounters a ] not preceeded by a \
	 *
	 * @param {string} str
	 * @param {string} regexpStr
	 * @returns {Array.<Array.<Object>, number>}
	 */
	const tokenizeClass = (str, regexpStr = '') => {
	    var _a, _b, _c, _d, _e, _f, _g;
	    let tokens = [], rs, c;
	    const regexp = /\\(?:(w)|(d)|(s)|(W)|(D)|(S))|((?:(?:\\)(.)|([^\]\\]))-(((?:\\)])|(((?:\\)?([^\]])))))|(\])|(?:\\)?([^])/g;
	    while ((rs = regexp.exec(str)) !== null) {
	        const p = (_g = (_f = (_e = (_d = (_c = (_b = (_a = (rs[1] && sets.words())) !== null && _a !== void 0 ? _a : (rs[2] && sets.ints())) !== null && _b !== void 0 ? _b : (rs[3] && sets.whitespace())) !== null && _c !== void 0 ? _c : (rs[4] && sets.notWords())) !== null && _d !== void 0 ? _d : (rs[5] && sets.notInts())) !== null && _e !== void 0 ? _e : (rs[6] && sets.notWhitespace())) !== null && _f !== void 0 ? _f : (rs[7] && {
	            type: types_1.types.RANGE,
	            from: (rs[8] || rs[9]).charCodeAt(0),
	            to: (c = rs[10]).charCodeAt(c.length - 1),
	        })) !== null && _g !== void 0 ? _g : ((c = rs[16]) && { type: types_1.types.CHAR, value: c.charCodeAt(0) });
	        if (p) {
	            tokens.push(p);
	        }
	        else {
	            return [tokens, regexp.lastIndex];
	        }
	    }
	    throw new SyntaxError(`Invalid regular expression: /${regexpStr}/: Unterminated character class`);
	};
	util.tokenizeClass = tokenizeClass;
	
	return util;
}

var hasRequiredTokenizer;

function requireTokenizer () {
	if (hasRequiredTokenizer) return tokenizer;
	hasRequiredTokenizer = 1;
	var __createBinding = (tokenizer && tokenizer.__createBinding) || (Object.create ? (function(o, m, k, k2) {
	    if (k2 === undefined) k2 = k;
	    var desc = Object.getOwnPropertyDescriptor(m, k);
	    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
	      desc = { enumerable: true, get: function() { return m[k]; } };
	    }
	    Object.defineProperty(o, k2, desc);
	}) : (function(o, m, k, k2) {
	    if (k2 === undefined) k2 = k;
	    o[k2] = m[k];
	}));
	var __setModuleDefault = (tokenizer && tokenizer.__setModuleDefault) || (Object.create ? (function(o, v) {
	    Object.defineProperty(o, "default", { enumerable: true, value: v });
	}) : function(o, v) {
	    o["default"] = v;
	});
	var __importStar = (tokenizer && tokenizer.__importStar) || (function () {
	    var ownKeys = function(o) {
	        ownKeys = Object.getOwnPropertyNames || function (o) {
	            var ar = [];
	            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
	            return ar;
	        };
	        return ownKeys(o);
	    };
	    return function (mod) {
	        if (mod && mod.__esModule) return mod;
	        var result = {};
	        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
	        __setModuleDefault(result, mod);
	        return result;
	    };
	})();
	Object.defineProperty(tokenizer, "__esModule", { value: true });
	tokenizer.tokenizer = void 0;
	const util = __importStar(requireUtil());
	const types_1 = requireTypes();
	const sets = __importStar(requireSets());
	/**
	 * Valid opening characters for capture group names.
	 */
	const captureGroupFirstChar = /^[a-zA-Z_$]$/i;
	/**
	 * Valid characters for capture group names.
	 */
	const captureGroupChars = /^[a-zA-Z0-9_$]$/i;
	const digit = /\d/;
	/**
	 * Tokenizes a regular expression (that is currently a string)
	 * @param {string} regexpStr String of regular expression to be tokenized
	 *
	 * @returns {Root}
	 */
	const tokenizer$1 = (regexpStr) => {
	    let i = 0, c;
	    let start = { type: types_1.types.ROOT, stack: [] };
	    // Keep track of last clause/group and stack.
	    let lastGroup = start;
	    let last = start.stack;
	    let groupStack = [];
	    let referenceQueue = [];
	    let groupCount = 0;
	    const repeatErr = (col) => {
	        throw new SyntaxError(`Invalid regular expression: /${regexpStr}/: Nothing to repeat at column ${col - 1}`);
	    };
	    // Decode a few escaped characters.
	    let str = util.strToChars(regexpStr);
	    // Iterate through each character in string.
	    while (i < str.length) {
	        switch (c = str[i++]) {
	            // Handle escaped characters, inclues a few sets.
	            case '\\':
	                if (i === str.length) {
	                    throw new SyntaxError(`Invalid regular expression: /${regexpStr}/: \\ at end of pattern`);
	                }
	                switch (c = str[i++]) {
	                    case 'b':
	                        last.push({ type: types_1.types.POSITION, value: 'b' });
	                        break;
	                    case 'B':
	                        last.push({ type: types_1.types.POSITION, value: 'B' });
	                        break;
	                    case 'w':
	                        last.push(sets.words());
	                        break;
	                    case 'W':
	                        last.push(sets.notWords());
	                        break;
	                    case 'd':
	                        last.push(sets.ints());
	                        break;
	                    case 'D':
	                        last.push(sets.notInts());
	                        break;
	                    case 's':
	                        last.push(sets.whitespace());
	                        break;
	                    case 'S':
	                        last.push(sets.notWhitespace());
	                        break;
	                    default:
	                        // Check if c is integer.
	                        // In which case it's a reference.
	                        if (digit.test(c)) {
	                            let digits = c;
	                            while (i < str.length && digit.test(str[i])) {
	                                digits += str[i++];
	                            }
	                            let value = parseInt(digits, 10);
	                            const reference = { type: types_1.types.REFERENCE, value };
	                            last.push(reference);
	                            referenceQueue.push({ reference, stack: last, index: last.length - 1 });
	                            // Escaped character.
	                        }
	                        else {
	                            last.push({ type: types_1.types.CHAR, value: c.charCodeAt(0) });
	                        }
	                }
	                break;
	            // Positionals.
	            case '^':
	                last.push({ type: types_1.types.POSITION, value: '^' });
	                break;
	            case '$':
	                last.push({ type: types_1.types.POSITION, value: '$' });
	                break;
	            // Handle custom sets.
	            case '[': {
	                // Check if this class is 'anti' i.e. [^abc].
	                let not;
	                if (str[i] === '^') {
	                    not = true;
	                    i++;
	                }
	                else {
	                    not = false;
	                }
	                // Get all the characters in class.
	                let classTokens = util.tokenizeClass(str.slice(i), regexpStr);
	                // Increase index by length of class.
	                i += classTokens[1];
	                last.push({
	                    type: types_1.types.SET,
	                    set: classTokens[0],
	                    not,
	                });
	                break;
	            }
	            // Class of any character except \n.
	            case '.':
	                last.push(sets.anyChar());
	                break;
	            // Push group onto stack.
	            case '(': {
	                // Create group.
	                let group = {
	                    type: types_1.types.GROUP,
	                    stack: [],
	                    remember: true,
	                };
	                // If this is a special kind of group.
	                if (str[i] === '?') {
	                    c = str[i + 1];
	                    i += 2;
	                    // Match if followed by.
	                    if (c === '=') {
	                        group.followedBy = true;
	                        group.remember = false;
	                        // Match if not followed by.
	                    }
	                    else if (c === '!') {
	                        group.notFollowedBy = true;
	                        group.remember = false;
	                    }
	                    else if (c === '<') {
	                        let name = '';
	                        if (captureGroupFirstChar.test(str[i])) {
	                            name += str[i];
	                            i++;
	                        }
	                        else {
	                            throw new SyntaxError(`Invalid regular expression: /${regexpStr}/: Invalid capture group name, character '${str[i]}'` +
	                                ` after '<' at column ${i + 1}`);
	                        }
	                        while (i < str.length && captureGroupChars.test(str[i])) {
	                            name += str[i];
	                            i++;
	                        }
	                        if (str[i] !== '>') {
	                            throw new SyntaxError(`Invalid regular expression: /${regexpStr}/: Unclosed capture group name, expected '>', found` +
	                                ` '${str[i]}' at column ${i + 1}`);
	                        }
	                        group.name = name;
	                        i++;
	                    }
	                    else if (c === ':') {
	                        group.remember = false;
	                    }
	                    else {
	                        throw new SyntaxError(`Invalid regular expression: /${regexpStr}/: Invalid group, character '${c}'` +
	                            ` after '?' at column ${i - 1}`);
	                    }
	                }
	                else {
	                    groupCount += 1;
	                }
	                // Insert subgroup into current group stack.
	                last.push(group);
	                // Remember the current group for when the group closes.
	                groupStack.push(lastGroup);
	                // Make this new group the current group.
	                lastGroup = group;
	                last = group.stack;
	                break;
	            }
	            // Pop group out of stack.
	            case ')':
	                if (groupStack.length === 0) {
	                    throw new SyntaxError(`Invalid regular expression: /${regexpStr}/: Unmatched ) at column ${i - 1}`);
	                }
	                lastGroup = groupStack.pop();
	                // Check if this group has a PIPE.
	                // To get back the correct last stack.
	                last = lastGroup.options ?
	                    lastGroup.options[lastGroup.options.length - 1] :
	                    lastGroup.stack;
	                break;
	            // Use pipe character to give more choices.
	            case '|': {
	                // Create array where options are if this is the first PIPE
	                // in this clause.
	                if (!lastGroup.options) {
	                    lastGroup.options = [lastGroup.stack];
	                    delete lastGroup.stack;
	                }
	                // Create a new stack and add to options for rest of clause.
	                let stack = [];
	                lastGroup.options.push(stack);
	                last = stack;
	                break;
	            }
	            // Repetition.
	            // For every repetition, remove last element from last stack
	            // then insert back a RANGE object.
	            // This design is chosen because there could be more than
	            // one repetition symbols in a regex i.e. `a?+{2,3}`.
	            case '{': {
	                let rs = /^(\d+)(,(\d+)?)?\}/.exec(str.slice(i)), min, max;
	                if (rs !== null) {
	                    if (last.length === 0) {
	                        repeatErr(i);
	                    }
	                    min = parseInt(rs[1], 10);
	                    max = rs[2] ? rs[3] ? parseInt(rs[3], 10) : Infinity : min;
	                    i += rs[0].length;
	                    last.push({
	                        type: types_1.types.REPETITION,
	                        min,
	                        max,
	                        value: last.pop(),
	                    });
	                }
	                else {
	                    last.push({
	                        type: types_1.types.CHAR,
	                        value: 123,
	                    });
	                }
	                break;
	            }
	            case '?':
	                if (last.length === 0) {
	                    repeatErr(i);
	                }
	                last.push({
	                    type: types_1.types.REPETITION,
	                    min: 0,
	                    max: 1,
	                    value: last.pop(),
	                });
	                break;
	            case '+':
	                if (last.length === 0) {
	                    repeatErr(i);
	                }
	                last.push({
	                    type: types_1.types.REPETITION,
	                    min: 1,
	                    max: Infinity,
	                    value: last.pop(),
	                });
	                break;
	            case '*':
	                if (last.length === 0) {
	                    repeatErr(i);
	                }
	                last.push({
	                    type: types_1.types.REPETITION,
	                    min: 0,
	                    max: Infinity,
	                    value: last.pop(),
	                });
	                break;
	            // Default is a character that is not `\[](){}?+*^$`.
	            default:
	                last.push({
	                    type: types_1.types.CHAR,
	                    value: c.charCodeAt(0),
	                });
	        }
	    }
	    // Check if any groups have not been closed.
	    if (groupStack.length !== 0) {
	        throw new SyntaxError(`Invalid regular expression: /${regexpStr}/: Unterminated group`);
	    }
	    updateReferences(referenceQueue, groupCount);
	    return start;
	};
	tokenizer.tokenizer = tokenizer$1;
	/**
	 * This is a side effecting function that changes references to chars
	 * if there are not enough capturing groups to reference
	 * See: https://github.com/fent/ret.js/pull/39#issuecomment-1006475703
	 * See: https://github.com/fent/ret.js/issues/38
	 * @param {(Reference | Char)[]} referenceQueue
	 * @param {number} groupCount
	 * @returns {void}
	 */
	function updateReferences(referenceQueue, groupCount) {
	    // Note: We go through the queue in reverse order so
	    // that index we use is correct even if we have to add
	    // multiple tokens to one stack
	    for (const elem of referenceQueue.reverse()) {
	        if (groupCount < elem.reference.value) {
	            // If there is nothing to reference then turn this into a char token
	            elem.reference.type = types_1.types.CHAR;
	            const valueString = elem.reference.value.toString();
	            elem.reference.value = parseInt(valueString, 8);
	            // If the number is not octal then we need to create multiple tokens
	            // https://github.com/fent/ret.js/pull/39#issuecomment-1008229226
	            if (!/^[0-7]+$/.test(valueString)) {
	                let i = 0;
	                while (valueString[i] !== '8' && valueString[i] !== '9') {
	                    i += 1;
	                }
	                if (i === 0) {
	                    // Handling case when escaped number starts with 8 or 9
	                    elem.reference.value = valueString.charCodeAt(0);
	                    i += 1;
	                }
	                else {
	                    // If the escaped number does not start with 8 or 9, then all
	                    // 0-7 digits before the first 8/9 form the first character code
	                    // see: https://github.com/fent/ret.js/pull/39#discussion_r780747085
	                    elem.reference.value = parseInt(valueString.slice(0, i), 8);
	                }
	                if (valueString.length > i) {
	                    const tail = elem.stack.splice(elem.index + 1);
	                    for (const char of valueString.slice(i)) {
	                        elem.stack.push({
	                            type: types_1.types.CHAR,
	                            value: char.charCodeAt(0),
	                        });
	                    }
	                    elem.stack.push(...tail);
	                }
	            }
	        }
	    }
	}
	
	return tokenizer;
}

var reconstruct = {};

var writeSetTokens = {};

var setsLookup = {};

var hasRequiredSetsLookup;

function requireSetsLookup () {
	if (hasRequiredSetsLookup) return setsLookup;
	hasRequiredSetsLookup = 1;
	var __createBinding = (setsLookup && setsLookup.__createBinding) || (Object.create ? (function(o, m, k, k2) {
	    if (k2 === undefined) k2 = k;
	    var desc = Object.getOwnPropertyDescriptor(m, k);
	    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
	      desc = { enumerable: true, get: function() { return m[k]; } };
	    }
	    Object.defineProperty(o, k2, desc);
	}) : (function(o, m, k, k2) {
	    if (k2 === undefined) k2 = k;
	    o[k2] = m[k];
	}));
	var __setModuleDefault = (setsLookup && setsLookup.__setModuleDefault) || (Object.create ? (function(o, v) {
	    Object.defineProperty(o, "default", { enumerable: true, value: v });
	}) : function(o, v) {
	    o["default"] = v;
	});
	var __importStar = (setsLookup && setsLookup.__importStar) || (function () {
	    var ownKeys = function(o) {
	        ownKeys = Object.getOwnPropertyNames || function (o) {
	            var ar = [];
	            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
	            return ar;
	        };
	        return ownKeys(o);
	    };
	    return function (mod) {
	        if (mod && mod.__esModule) return mod;
	        var result = {};
	        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
	        __setModuleDefault(result, mod);
	        return result;
	    };
	})();
	Object.defineProperty(setsLookup, "__esModule", { value: true });
	setsLookup.NOTANYCHAR = setsLookup.WHITESPACE = setsLookup.WORDS = setsLookup.INTS = void 0;
	const Sets = __importStar(requireSets());
	const types_1 = requireTypes();
	function setToLookup(tokens) {
	    let lookup = {};
	    let len = 0;
	    for (const token of tokens) {
	        if (token.type === types_1.types.CHAR) {
	            lookup[token.value] = true;
	        }
	        // Note this is in an if statement because
	        // the SetTokens type is (Char | Range | Set)[]
	        // so a type error is thrown if it is not.
	        // If the SetTokens type is modified the if statement
	        // can be removed
	        if (token.type === types_1.types.RANGE) {
	            lookup[`${token.from}-${token.to}`] = true;
	        }
	        len += 1;
	    }
	    return {
	        lookup: () => (Object.assign({}, lookup)),
	        len,
	    };
	}
	setsLookup.INTS = setToLookup(Sets.ints().set);
	setsLookup.WORDS = setToLookup(Sets.words().set);
	setsLookup.WHITESPACE = setToLookup(Sets.whitespace().set);
	setsLookup.NOTANYCHAR = setToLookup(Sets.anyChar().set);
	
	return setsLookup;
}

var hasRequiredWriteSetTokens;

function requireWriteSetTokens () {
	if (hasRequiredWriteSetTokens) return writeSetTokens;
	hasRequiredWriteSetTokens = 1;
	var __createBinding = (writeSetTokens && writeSetTokens.__createBinding) || (Object.create ? (function(o, m, k, k2) {
	    if (k2 === undefined) k2 = k;
	    var desc = Object.getOwnPropertyDescriptor(m, k);
	    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
	      desc = { enumerable: true, get: function() { return m[k]; } };
	    }
	    Object.defineProperty(o, k2, desc);
	}) : (function(o, m, k, k2) {
	    if (k2 === undefined) k2 = k;
	    o[k2] = m[k];
	}));
	var __setModuleDefault = (writeSetTokens && writeSetTokens.__setModuleDefault) || (Object.create ? (function(o, v) {
	    Object.defineProperty(o, "default", { enumerable: true, value: v });
	}) : function(o, v) {
	    o["default"] = v;
	});
	var __importStar = (writeSetTokens && writeSetTokens.__importStar) || (function () {
	    var ownKeys = function(o) {
	        ownKeys = Object.getOwnPropertyNames || function (o) {
	            var ar = [];
	            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
	            return ar;
	        };
	        return ownKeys(o);
	    };
	    return function (mod) {
	        if (mod && mod.__esModule) return mod;
	        var result = {};
	        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
	        __setModuleDefault(result, mod);
	        return result;
	    };
	})();
	Object.defineProperty(writeSetTokens, "__esModule", { value: true });
	writeSetTokens.setChar = setChar;
	writeSetTokens.writeSetTokens = writeSetTokens$1;
	const types_1 = requireTypes();
	const sets = __importStar(requireSetsLookup());
	/**
	 * Takes character code and returns character to be displayed in a set
	 * @param {number} charCode Character code of set element
	 * @returns {string} The string for the sets character
	 */
	function setChar(charCode) {
	    return charCode === 94 ? '\\^' :
	        charCode === 92 ? '\\\\' :
	            charCode === 93 ? '\\]' :
	                charCode === 45 ? '\\-' :
	                    String.fromCharCode(charCode);
	}
	/**
	 * Test if a character set matches a 'set-lookup'
	 * @param {SetTokens} set The set to be tested
	 * @param {SetLookup} param The predefined 'set-lookup' & the number of elements in the lookup
	 * @returns {boolean} True if the character set corresponds to the 'set-lookup'
	 */
	function isSameSet(set, { lookup, len }) {
	    // If the set and the lookup are not of the same length
	    // then we immediately know that the lookup will be false
	    if (len !== set.length) {
	        return false;
	    }
	    const map = lookup();
	    for (const elem of set) {
	        if (elem.type === types_1.types.SET) {
	            return false;
	        }
	        const key = elem.type === types_1.types.CHAR ? elem.value : `${elem.from}-${elem.to}`;
	        if (map[key]) {
	            map[key] = false;
	        }
	        else {
	            return false;
	        }
	    }
	    return true;
	}
	/**
	 * Writes the tokens for a set
	 * @param {Set} set The set to display
	 * @param {boolean} isNested Whether the token is nested inside another set token
	 * @returns {string} The tokens for the set
	 */
	function writeSetTokens$1(set, isNested = false) {
	    if (isSameSet(set.set, sets.INTS)) {
	        return set.not ? '\\D' : '\\d';
	    }
	    if (isSameSet(set.set, sets.WORDS)) {
	        return set.not ? '\\W' : '\\w';
	    }
	    // Notanychar is only relevant when not nested inside another set token
	    if (set.not && isSameSet(set.set, sets.NOTANYCHAR)) {
	        return '.';
	    }
	    if (isSameSet(set.set, sets.WHITESPACE)) {
	        return set.not ? '\\S' : '\\s';
	    }
	    let tokenString = '';
	    for (let i = 0; i < set.set.length; i++) {
	        const subset = set.set[i];
	        tokenString += writeSetToken(subset);
	    }
	    const contents = `${set.not ? '^' : ''}${tokenString}`;
	    return isNested ? contents : `[${contents}]`;
	}
	/**
	 * Writes a token within a set
	 * @param {Range | Char | Set} set The set token to display
	 * @returns {string} The token as a string
	 */
	function writeSetToken(set) {
	    if (set.type === types_1.types.CHAR) {
	        return setChar(set.value);
	    }
	    else if (set.type === types_1.types.RANGE) {
	        return `${setChar(set.from)}-${setChar(set.to)}`;
	    }
	    return writeSetTokens$1(set, true);
	}
	
	return writeSetTokens;
}

var hasRequiredReconstruct;

function requireReconstruct () {
	if (hasRequiredReconstruct) return reconstruct;
	hasRequiredReconstruct = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.reconstruct = void 0;
		const types_1 = requireTypes();
		const write_set_tokens_1 = requireWriteSetTokens();
		const reduceStack = (stack) => stack.map(exports.reconstruct).join('');
		const createAlternate = (token) => {
		    if ('options' in token) {
		        return token.options.map(reduceStack).join('|');
		    }
		    else if ('stack' in token) {
		        return reduceStack(token.stack);
		    }
		    else {
		        throw new Error(`options or stack must be Root or Group token`);
		    }
		};
		const reconstruct = (token) => {
		    switch (token.type) {
		        case types_1.types.ROOT:
		            return createAlternate(token);
		        case types_1.types.CHAR: {
		            const c = String.fromCharCode(token.value);
		            // Note that the escaping for characters inside classes is handled
		            // in the write-set-tokens module so '-' and ']' are not escaped here
		            return (/[[\\{}$^.|?*+()]/.test(c) ? '\\' : '') + c;
		        }
		        case types_1.types.POSITION:
		            if (token.value === '^' || token.value === '$') {
		                return token.value;
		            }
		            else {
		                return `\\${token.value}`;
		            }
		        case types_1.types.REFERENCE:
		            return `\\${token.value}`;
		        case types_1.types.SET:
		            return (0, write_set_tokens_1.writeSetTokens)(token);
		        case types_1.types.GROUP: {
		            // Check token.remember
		            const prefix = token.name ? `?<${token.name}>` :
		                token.remember ? '' :
		                    token.followedBy ? '?=' :
		                        token.notFollowedBy ? '?!' :
		                            '?:';
		            return `(${prefix}${createAlternate(token)})`;
		        }
		        case types_1.types.REPETITION: {
		            const { min, max } = token;
		            let endWith;
		            if (min === 0 && max === 1) {
		                endWith = '?';
		            }
		            else if (min === 1 && max === Infinity) {
		                endWith = '+';
		            }
		            else if (min === 0 && max === Infinity) {
		                endWith = '*';
		            }
		            else if (max === Infinity) {
		                endWith = `{${min},}`;
		            }
		            else if (min === max) {
		                endWith = `{${min}}`;
		            }
		            else {
		                endWith = `{${min},${max}}`;
		            }
		            return `${(0, exports.reconstruct)(token.value)}${endWith}`;
		        }
		        case types_1.types.RANGE:
		            return `${(0, write_set_tokens_1.setChar)(token.from)}-${(0, write_set_tokens_1.setChar)(token.to)}`;
		        default:
		            throw new Error(`Invalid token type ${token}`);
		    }
		};
		exports.reconstruct = reconstruct;
		
	} (reconstruct));
	return reconstruct;
}

var dist$1 = dist$2.exports;

var hasRequiredDist$1;

function requireDist$1 () {
	if (hasRequiredDist$1) return dist$2.exports;
	hasRequiredDist$1 = 1;
	(function (module, exports) {
		var __createBinding = (dist$1 && dist$1.__createBinding) || (Object.create ? (function(o, m, k, k2) {
		    if (k2 === undefined) k2 = k;
		    var desc = Object.getOwnPropertyDescriptor(m, k);
		    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
		      desc = { enumerable: true, get: function() { return m[k]; } };
		    }
		    Object.defineProperty(o, k2, desc);
		}) : (function(o, m, k, k2) {
		    if (k2 === undefined) k2 = k;
		    o[k2] = m[k];
		}));
		var __exportStar = (dist$1 && dist$1.__exportStar) || function(m, exports) {
		    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
		};
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.types = void 0;
		/* istanbul ignore file */
		const types_1 = requireTypes();
		Object.defineProperty(exports, "types", { enumerable: true, get: function () { return types_1.types; } });
		__exportStar(requireTokenizer(), exports);
		__exportStar(requireReconstruct(), exports);
		const tokenizer_1 = requireTokenizer();
		const reconstruct_1 = requireReconstruct();
		__exportStar(requireTypes(), exports);
		exports.default = tokenizer_1.tokenizer;
		module.exports = tokenizer_1.tokenizer;
		module.exports.types = types_1.types;
		module.exports.reconstruct = reconstruct_1.reconstruct;
		
	} (dist$2, dist$2.exports));
	return dist$2.exports;
}

var hasRequiredSafeRegex2;

function requireSafeRegex2 () {
	if (hasRequiredSafeRegex2) return safeRegex2.exports;
	hasRequiredSafeRegex2 = 1;

	const parse = requireDist$1();
	const { types } = requireDist$1();

	/**
	 * @param {*} node
	 * @param {object} opts
	 * @param {number} opts.reps - The number of repetitions encountered
	 * @param {number} opts.limit - The maximum number of repetitions allowed
	 * @param {number} starHeight - The current height of the star in the regex tree
	 * @returns {boolean}
	 */
	function walk (node, opts, starHeight) {
	  let i;
	  let ok;
	  let len;

	  if (node.type === types.REPETITION) {
	    starHeight++;
	    opts.reps++;
	    if (starHeight > 1) return false
	    if (opts.reps > opts.limit) return false
	  }

	  const options = node.options || node.value?.options;
	  if (options) {
	    for (i = 0, len = options.length; i < len; i++) {
	      ok = walk({ stack: options[i] }, opts, starHeight);
	      if (!ok) return false
	    }
	  }
	  const stack = node.stack || node.value?.stack;
	  if (!stack) return true

	  for (i = 0, len = stack.length; i < len; i++) {
	    ok = walk(stack[i], opts, starHeight);
	    if (!ok) return false
	  }

	  return true
	}

	/**
	 * @param {string|RegExp} re - The regular expression to check, can be a string or RegExp object
	 * @param {object} [options]
	 * @param {number} [options.limit=25] - The maximum number of repetitions allowed
	 * @returns {boolean} - Returns true if the regex is safe, false if it is unsafe or invalid
	 */
	function safeRegex (re, options) {
	  const opts = {
	    reps: 0,
	    limit: options?.limit ?? 25
	  };

	  if (isRegExp(re)) re = re.source;
	  else if (typeof re !== 'string') re = String(re);

	  try {
	    return walk(parse(re), opts, 0)
	  } catch {
	    return false
	  }
	}

	/**
	 * @param {*} x
	 * @returns {x is RegExp}
	 */
	function isRegExp (x) {
	  return Object.prototype.toString.call(x) === '[object RegExp]'
	}

	safeRegex2.exports = safeRegex;
	safeRegex2.exports.default = safeRegex;
	safeRegex2.exports.safeRegex = safeRegex;
	return safeRegex2.exports;
}

var safeRegex2Exports = requireSafeRegex2();
var safeRegex = /*@__PURE__*/getDefaultExportFromCjs(safeRegex2Exports);

// Catastrophic-backtracking check for the regular expressions a config gives proctor (detect rules).
// safe-regex2 (maintained by the Fastify team, no network, plain JS) flags nested quantifiers such as
// `(a+)+`, whose matching time grows exponentially with the line: one such rule froze the supervisor.
/** Null when `pattern` is safe; otherwise why not and how to fix it. */
function catastrophicRegex(pattern, flags = '') {
    let regex;
    try {
        regex = new RegExp(pattern, flags);
    }
    catch {
        return null; // invalid patterns are reported on their own
    }
    if (safeRegex(regex))
        return null;
    return {
        message: `${JSON.stringify(pattern)} can backtrack catastrophically (a quantifier inside a quantified group, ` +
            'such as (a+)+): matching one long line could take minutes',
        hint: 'drop the inner or the outer quantifier, e.g. write (a+)+$ as a+$ and (\\w+\\s?)+ as [\\w\\s]+',
    };
}

/**
 * Common interactive prompts, answered so an unattended session does not hang on them. Enabling the
 * preset is the user's consent to approve: every answer is recorded as an event, and policy checks and
 * checkpoints still apply to what the agent does next. Patterns are anchored at the end of the line,
 * where a prompt waits for input, so a log line that merely mentions "[y/N]" does not fire.
 */
const prompts = [
    {
        name: 'preset:y/N',
        match: String.raw `\[y/N\]\s*[:?>]?\s*$`,
        kind: 'approval_request',
        respond: { send: 'y\r' },
    },
    {
        name: 'preset:Y/n',
        match: String.raw `\[Y/n\]\s*[:?>]?\s*$`,
        kind: 'approval_request',
        respond: { send: 'y\r' },
    },
    {
        name: 'preset:(y/n)',
        match: String.raw `\(y/n\)\s*[:?>]?\s*$`,
        flags: 'i',
        kind: 'approval_request',
        respond: { send: 'y\r' },
    },
    {
        name: 'preset:allow-action',
        match: String.raw `Allow this action\?`,
        kind: 'approval_request',
        respond: { send: 'y\r' },
    },
    {
        // Claude Code and Codex show a menu under this question with "Yes" highlighted: Enter picks it.
        name: 'preset:proceed',
        match: String.raw `Do you want to proceed\?`,
        kind: 'approval_request',
        respond: { send: '\r' },
    },
];
const presets = { prompts };
function presetRules(names) {
    return [...new Set(names)].flatMap((name) => presets[name] ?? []);
}

// Running detect rules so that no pattern can stall the supervisor (its timers, timeouts, signals all
// share this thread):
// - a pattern V8's linear-time engine can run is matched here, directly (the common case, ~1 µs a line):
//   any match of it that backtracks excessively is rerun by that engine (the flag below), so a pattern
//   like (a|a)*b that slipped past the load-time check costs milliseconds, not hours;
// - a pattern it cannot run (back-references such as \1, lookarounds, the i flag; V8's own verdict is
//   whether `new RegExp(source, flags + 'l')` compiles) can backtrack for hours on one line, and V8
//   cannot stop a match running on this thread. Such patterns are matched on a worker thread instead,
//   synchronously (Atomics.wait, ~10–60 µs a line measured): a match not done SLOW_MATCH_MS after the
//   worker picked it up is cut off (the worker is terminated, which interrupts the backtracking) and
//   reported as slow, and the caller disables the rule;
// - each line is matched on at most MAX_MATCH_INPUT characters, so a long line bounds the work.
// A worker with a deadline rather than vm.runInContext({ timeout }): that also interrupts a match, but
// starts a watchdog thread per call (85–1,300 µs a line measured on Node 20 and 24), on every line.
/** Characters of one line given to a rule; the rest of a longer line is not matched. */
const MAX_MATCH_INPUT = 4096;
/** A single match slower than this is cut off (worker) or noticed (here), and disables its rule. */
const SLOW_MATCH_MS = 100;
/** How long a worker may take to start, and to pick up a request, before its patterns run here. */
const WORKER_START_MS = 5_000;
/** V8's flag for "run with the linear engine" (only with --enable-experimental-regexp-engine). */
const LINEAR_FLAG = 'l';
let fallbackEnabled = false;
let linearCheck = true;
/**
 * Turns on V8's fallback to its linear engine (idempotent; applies to every later match), and its `l`
 * flag, used only to ask V8 whether it can run a pattern linearly.
 */
function enableLinearFallback() {
    if (fallbackEnabled)
        return;
    v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    v8.setFlagsFromString('--enable-experimental-regexp-engine');
    fallbackEnabled = true;
    try {
        new RegExp('a', LINEAR_FLAG);
    }
    catch {
        linearCheck = false; // this V8 has no `l` flag: judge by syntax (linearBySyntax)
    }
}
enableLinearFallback();
const linearCache = new WeakMap();
/**
 * Whether `regex` is matched on this thread: V8 can run it in linear time (so the excessive-backtracks
 * fallback covers it), or it is a preset (prepareRegexes).
 */
function runsLinearly(regex) {
    let linear = linearCache.get(regex);
    if (linear === undefined) {
        if (linearCheck) {
            try {
                new RegExp(regex.source, regex.flags + LINEAR_FLAG);
                linear = true;
            }
            catch {
                linear = false;
            }
        }
        else
            linear = linearBySyntax(regex);
        linearCache.set(regex, linear);
    }
    return linear;
}
/** Without V8's verdict: back-references, lookarounds and the i flag are what its linear engine cannot run. */
function linearBySyntax(regex) {
    return !regex.flags.includes('i') && !/\\[1-9]|\\k<|\(\?<?[=!]/.test(regex.source);
}
/**
 * Starts the worker for the patterns that need one, so that their first match does not wait for it.
 * Presets are proctor's own patterns (anchored on literal text, reviewed, tested): they always run here.
 */
function prepareRegexes(rules) {
    for (const rule of rules)
        if (rule.preset)
            linearCache.set(rule.regex, true);
    if (rules.some((r) => !runsLinearly(r.regex)))
        sandbox();
}
/** One bounded, timed match. `ms` above SLOW_MATCH_MS means the rule is too slow (and `match` is null). */
function boundedExec(regex, text) {
    const input = text.length > MAX_MATCH_INPUT ? text.slice(0, MAX_MATCH_INPUT) : text;
    if (!runsLinearly(regex)) {
        const result = sandbox().exec(regex, input);
        if (result)
            return result;
    }
    const started = performance.now();
    const match = regex.exec(input);
    return { match, ms: performance.now() - started };
}
// The worker: one request at a time through shared memory. Control words:
const STATE$1 = 0; // IDLE → REQUEST (main) → RUNNING (worker) → DONE (worker) → IDLE (main)
const OP = 1; // COMPILE (text = source, FLAGS = flags) or EXEC (text = input)
const LENGTH = 2; // characters in text
const FLAGS = 3; // i m s u as bits
const RESULT = 4; // EXEC: match index, -1 no match, -2 error; COMPILE: 0 or -2
const RESULT_LENGTH = 5; // EXEC: length of the match
const READY = 6; // 1 once the worker runs
const CONTROL_BYTES = 32;
const IDLE = 0;
const REQUEST = 1;
const RUNNING = 2;
const DONE = 3;
const COMPILE = 1;
const EXEC = 2;
const FLAG_BITS = 'imsu';
/** Longest pattern source or input the shared buffer carries (UTF-16 code units). */
const TEXT_UNITS = 64 * 1024;
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads')
const ctrl = new Int32Array(workerData, 0, ${CONTROL_BYTES / 4})
const text = new Uint16Array(workerData, ${CONTROL_BYTES})
const read = (n) => {
  let s = ''
  for (let i = 0; i < n; i += 8192) s += String.fromCharCode.apply(null, text.subarray(i, Math.min(n, i + 8192)))
  return s
}
let regex = null
Atomics.store(ctrl, ${READY}, 1)
Atomics.notify(ctrl, ${READY})
for (;;) {
  const state = Atomics.load(ctrl, ${STATE$1})
  if (state !== ${REQUEST}) { Atomics.wait(ctrl, ${STATE$1}, state); continue }
  Atomics.store(ctrl, ${STATE$1}, ${RUNNING})
  Atomics.notify(ctrl, ${STATE$1})
  const input = read(ctrl[${LENGTH}])
  try {
    if (ctrl[${OP}] === ${COMPILE}) {
      let flags = ''
      for (let b = 0; b < ${FLAG_BITS.length}; b++) if (ctrl[${FLAGS}] & (1 << b)) flags += '${FLAG_BITS}'[b]
      regex = new RegExp(input, flags)
      ctrl[${RESULT}] = 0
    } else {
      const m = regex.exec(input)
      ctrl[${RESULT}] = m ? m.index : -1
      ctrl[${RESULT_LENGTH}] = m ? m[0].length : 0
    }
  } catch {
    ctrl[${RESULT}] = -2
  }
  Atomics.store(ctrl, ${STATE$1}, ${DONE})
  Atomics.notify(ctrl, ${STATE$1})
}
`;
/** A worker that runs one pattern at a time, synchronously, with a deadline. */
class RegexSandbox {
    ctrl;
    text;
    worker;
    /** The pattern the worker holds (it is recompiled when another one is asked for). */
    loaded = null;
    /** Ended (a request cut off, or the thread died): the next request starts a fresh worker. */
    broken = false;
    /** Workers cannot run here (this one never started or never answered): patterns run on the main thread. */
    unavailable = false;
    constructor() {
        const shared = new SharedArrayBuffer(CONTROL_BYTES + TEXT_UNITS * 2);
        this.ctrl = new Int32Array(shared, 0, CONTROL_BYTES / 4);
        this.text = new Uint16Array(shared, CONTROL_BYTES);
        // The worker runs nothing but RegExp: no environment, no stdin.
        this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: shared, env: {}, stdin: false });
        this.worker.unref();
        this.worker.on('error', () => (this.broken = true));
        this.worker.on('exit', () => (this.broken = true));
    }
    /** The match; null only when no worker could be started (then the caller matches here). */
    exec(regex, input) {
        if (this.unavailable || !this.ready())
            return null;
        const started = performance.now();
        const none = () => ({ match: null, ms: performance.now() - started });
        // Too long to pass (a 64 Ki-character pattern): never matched, rather than matched unbounded here.
        if (input.length > TEXT_UNITS || regex.source.length > TEXT_UNITS)
            return none();
        if (this.loaded !== regex) {
            let bits = 0;
            for (let b = 0; b < FLAG_BITS.length; b++)
                if (regex.flags.includes(FLAG_BITS[b]))
                    bits |= 1 << b;
            this.ctrl[FLAGS] = bits;
            const compiled = this.call(COMPILE, regex.source);
            if (compiled !== 'done')
                return this.stop(compiled, started);
            if (this.ctrl[RESULT] !== 0)
                return none();
            this.loaded = regex;
        }
        const outcome = this.call(EXEC, input);
        if (outcome !== 'done')
            return this.stop(outcome, started);
        const index = this.ctrl[RESULT];
        if (index < 0)
            return none(); // -1 no match, -2 the match threw (e.g. a stack overflow)
        const match = [input.slice(index, index + this.ctrl[RESULT_LENGTH])];
        match.index = index;
        match.input = input;
        return { match, ms: performance.now() - started };
    }
    /** Ends this worker after a request it did not answer in time; V8 interrupts the backtracking. */
    stop(outcome, started) {
        this.broken = true;
        void this.worker.terminate();
        if (outcome === 'lost') {
            this.unavailable = true;
            return null;
        }
        replaceSandbox(); // starts now, so the next pattern does not wait for a worker to start
        return { match: null, ms: Math.max(performance.now() - started, SLOW_MATCH_MS + 1) };
    }
    ready() {
        if (Atomics.load(this.ctrl, READY) === 1)
            return true;
        // Started at session start (prepareRegexes), so this wait is short or none.
        Atomics.wait(this.ctrl, READY, 0, WORKER_START_MS);
        if (Atomics.load(this.ctrl, READY) === 1)
            return true;
        this.broken = true;
        this.unavailable = true;
        void this.worker.terminate();
        return false;
    }
    /** One request: 'done', 'slow' (still running SLOW_MATCH_MS after pickup) or 'lost' (never picked up). */
    call(op, data) {
        for (let i = 0; i < data.length; i++)
            this.text[i] = data.charCodeAt(i);
        this.ctrl[OP] = op;
        this.ctrl[LENGTH] = data.length;
        Atomics.store(this.ctrl, STATE$1, REQUEST);
        Atomics.notify(this.ctrl, STATE$1);
        // The deadline counts from the worker's pickup: a busy machine delaying the thread is not a slow pattern.
        const sent = performance.now();
        let picked = null;
        for (;;) {
            const state = Atomics.load(this.ctrl, STATE$1);
            if (state === DONE) {
                Atomics.store(this.ctrl, STATE$1, IDLE);
                return 'done';
            }
            if (state === RUNNING && picked === null)
                picked = performance.now();
            const left = picked === null
                ? sent + WORKER_START_MS - performance.now()
                : picked + SLOW_MATCH_MS - performance.now();
            if (left <= 0)
                return picked === null ? 'lost' : 'slow';
            Atomics.wait(this.ctrl, STATE$1, state, left);
        }
    }
}
let current = null;
function replaceSandbox() {
    current = new RegexSandbox();
}
function sandbox() {
    // A worker that could not start is kept (unavailable): starting another would block again.
    if (current?.broken && !current.unavailable)
        current = null;
    current ??= new RegexSandbox();
    return current;
}

/** A rule of this kind says the agent is busy: it gates completions and is never reported itself. */
const WORKING_KIND = 'working';
const COMPLETION_KIND = 'completion';
/** A detect rule that cannot be used, with what to change. */
class DetectRuleError extends Error {
    rule;
    constructor(message, rule) {
        super(message);
        this.rule = rule;
        this.name = 'DetectRuleError';
    }
}
const DEFAULT_DENY_TEXT = 'n\r';
const MAX_EVENT_TEXT = 1000;
/**
 * Decodes the escapes people write for keys when YAML did not already: \r (Enter), \n, \t, \e or \x1b
 * (Escape), \xHH, \uHHHH and \\. Text with no backslash is returned as is.
 */
function decodeKeys(text) {
    if (!text.includes('\\'))
        return text;
    return text.replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(.))/gs, (whole, hex2, hex4, ch) => {
        if (hex2)
            return String.fromCharCode(parseInt(hex2, 16));
        if (hex4)
            return String.fromCharCode(parseInt(hex4, 16));
        const simple = { r: '\r', n: '\n', t: '\t', e: '\x1b', '\\': '\\', '0': '\0' };
        return simple[ch] ?? whole;
    });
}
/**
 * The one response a rule asks for. `notify` may accompany another action (every event is recorded
 * anyway); two actions (send and stop, say) are ambiguous, so they are refused.
 */
function ruleResponse(rule) {
    const r = rule.respond ?? {};
    const actions = [];
    if (r.send !== undefined)
        actions.push('send');
    if (r.deny || r.deny_text !== undefined)
        actions.push('deny');
    if (r.stop)
        actions.push('stop');
    if (actions.length > 1) {
        throw new DetectRuleError(`detect rule "${rule.name}": respond has ${actions.join(' and ')}; a rule answers one way — ` +
            `keep one of send, deny or stop (write a second rule for a second action)`, rule.name);
    }
    const type = actions[0] ?? 'notify';
    if (type === 'send')
        return { type, text: decodeKeys(r.send ?? '') };
    if (type === 'deny')
        return { type, text: decodeKeys(r.deny_text ?? DEFAULT_DENY_TEXT) };
    return { type };
}
function compileRule(rule, preset = false) {
    const flags = rule.flags ?? '';
    if (/[^imsu]/.test(flags)) {
        throw new DetectRuleError(`detect rule "${rule.name}": flags "${flags}" — only i, m, s and u are allowed (g and y make matching stateful)`, rule.name);
    }
    let regex;
    try {
        regex = new RegExp(rule.match, flags);
    }
    catch (err) {
        throw new DetectRuleError(`detect rule "${rule.name}": match ${JSON.stringify(rule.match)} is not a valid regular expression ` +
            `(${err.message}); escape characters such as [ ] ( ) ? * + with a backslash to match them literally`, rule.name);
    }
    const unsafe = catastrophicRegex(rule.match, flags);
    if (unsafe)
        throw new DetectRuleError(`detect rule "${rule.name}": match ${unsafe.message}; ${unsafe.hint}`, rule.name);
    if (regex.test('')) {
        throw new DetectRuleError(`detect rule "${rule.name}": match ${JSON.stringify(rule.match)} matches empty text, so it would fire on every line; make it require some text`, rule.name);
    }
    return {
        name: rule.name,
        kind: rule.kind ?? 'approval_request',
        regex,
        response: ruleResponse(rule),
        maxFires: rule.max_fires ?? null,
        preset,
        delayMs: rule.respond?.delay ?? 0,
        retryAfterMs: rule.respond?.retry_after ?? null,
        maxAttempts: rule.respond?.max_attempts ?? (rule.respond?.retry_after !== undefined ? 3 : 1),
    };
}
/** The user's rules first, then the enabled presets. Throws DetectRuleError for the first bad rule. */
function compileRules(rules, presets = []) {
    const names = new Set();
    for (const rule of rules) {
        if (names.has(rule.name)) {
            throw new DetectRuleError(`detect rule "${rule.name}" is defined twice; give each rule its own name`, rule.name);
        }
        names.add(rule.name);
    }
    return [
        ...rules.map((r) => compileRule(r, false)),
        ...presetRules(presets).map((r) => compileRule(r, true)),
    ];
}
/**
 * Fires a rule once per appearance of its match. On a rendered screen an appearance is the rule, the
 * matched text and the line it sits on (followed through scrolling, so a matched line that scrolls up
 * does not fire again); it is forgotten as soon as a scan no longer sees it on the screen. So a prompt
 * redrawn in place fires once, and a prompt that goes and comes back fires again. On lines, each line
 * fires a rule at most once, including the unfinished last line.
 * Presets never compete with the user's rules: a line that a user rule matches is not offered to the
 * presets, and at most one preset answers a line.
 */
class Detector {
    rules;
    clock;
    fireCounts;
    suppressed = 0;
    appearances = { buffer: 'normal', keys: new Map(), presetOnLine: new Map() };
    /** Set when any rule is of the working kind: completions then need work since the last typing. */
    gatesCompletion;
    /** The agent was seen working since proctor last typed into it (or since the start). */
    workedSinceTyping = false;
    /** Completion line texts on screen when proctor last typed: a re-render of them is not new (no working rules). */
    staleCompletionTexts = new Set();
    workingSeq = 0;
    /** First answers given to any prompt (respond: send or deny), for movedOn(). */
    answersGiven = 0;
    /** The last screen scan saw a working line. */
    workingOnScreen = false;
    lastScreen = null;
    /** Per rule, the seq of the last line it fired on (line views). */
    lastLineFired;
    lastPresetLine = -1;
    lastPresetRule = -1;
    /** Rules disabled for taking too long on a line. */
    disabled = new Set();
    /** Told once per rule disabled for a slow match. */
    onSlowRule;
    constructor(rules, clock = Date.now) {
        // User rules are matched before presets (matchLine relies on this order).
        this.rules = [...rules.filter((r) => !r.preset), ...rules.filter((r) => r.preset)];
        this.clock = clock;
        this.fireCounts = rules.map(() => 0);
        this.lastLineFired = rules.map(() => -1);
        this.gatesCompletion = rules.some((r) => r.kind === WORKING_KIND);
        prepareRegexes(this.rules);
    }
    /** How many scans have seen the agent working (grows while it is busy): a sign it reacted to typing. */
    get workingSeen() {
        return this.workingSeq;
    }
    /** Whether the last screen scan showed the agent busy (a working line on screen). */
    get workingNow() {
        return this.workingOnScreen;
    }
    get hasWorkingRules() {
        return this.gatesCompletion;
    }
    /**
     * proctor is about to type into the agent: completions on screen now are old. With working rules a
     * completion counts again only once the agent has been seen working; without, a completion line whose
     * text was already on screen (a re-render of the transcript) does not count.
     */
    markTyped() {
        this.workedSinceTyping = false;
        this.staleCompletionTexts = new Set();
        const screen = this.lastScreen;
        if (!screen)
            return;
        for (const line of screen.screenLines()) {
            this.rules.forEach((rule, i) => {
                if (rule.kind === COMPLETION_KIND && this.exec(i, line.text) !== null)
                    this.staleCompletionTexts.add(line.text);
            });
        }
        for (const appearance of this.appearances.keys.values()) {
            if (this.rules[appearance.rule].kind === COMPLETION_KIND)
                appearance.spent = true;
        }
    }
    /** When (clock ms) a delayed or repeated answer falls due, so the caller scans then; null: nothing pending. */
    nextDeadline() {
        let next = null;
        for (const a of this.appearances.keys.values()) {
            const rule = this.rules[a.rule];
            if (!isAnswer(rule))
                continue;
            let due = null;
            if (a.attempts === 0 && !a.spent)
                due = a.firstSeen + rule.delayMs;
            else if (rule.retryAfterMs !== null &&
                a.attempts > 0 &&
                a.attempts < rule.maxAttempts &&
                !this.movedOn(a))
                due = a.lastAttempt + rule.retryAfterMs;
            if (due !== null && (next === null || due < next))
                next = due;
        }
        return next;
    }
    static fromConfig(config, clock) {
        return new Detector(compileRules(config.detect, config.detect_presets), clock);
    }
    get isEmpty() {
        return this.rules.length === 0;
    }
    stats() {
        const fires = {};
        this.rules.forEach((r, i) => (fires[r.name] = this.fireCounts[i]));
        return { fires, suppressed: this.suppressed };
    }
    /**
     * Matches the visible screen; returns the new appearances as events, top to bottom, and answers due
     * again (respond.delay, respond.retry_after) for appearances still on screen.
     */
    scanScreen(screen) {
        this.lastScreen = screen;
        if (this.rules.length === 0)
            return [];
        const buffer = screen.bufferType;
        const previous = this.appearances.buffer === buffer ? this.appearances.keys : new Map();
        const presetOnLine = this.appearances.buffer === buffer ? this.appearances.presetOnLine : new Map();
        const current = new Map();
        const currentPresets = new Map();
        const at = this.clock();
        const hits = [];
        let working = false;
        for (const screenLine of screen.screenLines()) {
            for (const hit of this.matchLine(screenLine.text, presetOnLine.get(screenLine.line))) {
                if (this.rules[hit.rule].kind === WORKING_KIND) {
                    working = true;
                    continue;
                }
                hits.push({ hit, key: `${hit.rule}\0${screenLine.line}\0${hit.match[0]}`, text: screenLine.text });
                if (this.rules[hit.rule].preset)
                    currentPresets.set(screenLine.line, hit.rule);
            }
        }
        this.workingOnScreen = working;
        if (working) {
            this.workedSinceTyping = true;
            this.workingSeq++;
        }
        // An agent waiting on a dialog or an approval is not done, whatever old "done" line is still on screen.
        const waiting = hits.some(({ hit }) => this.rules[hit.rule].kind === 'approval_request' || isAnswer(this.rules[hit.rule]));
        const events = [];
        for (const { hit, key, text } of hits) {
            const rule = this.rules[hit.rule];
            const seen = previous.get(key);
            const appearance = seen ?? {
                rule: hit.rule,
                firstSeen: at,
                attempts: 0,
                lastAttempt: 0,
                workingAtAttempt: 0,
                answersAtAttempt: 0,
                spent: false,
            };
            current.set(key, appearance);
            if (appearance.spent)
                continue;
            if (rule.kind === COMPLETION_KIND && appearance.attempts === 0) {
                if (!this.completionCounts(text, working || waiting)) {
                    // Not yet: the agent has not worked since proctor typed (a re-render), or is still busy.
                    if (!this.gatesCompletion || !this.workedSinceTyping)
                        appearance.spent = true;
                    continue;
                }
            }
            if (appearance.attempts === 0) {
                if (isAnswer(rule) && at - appearance.firstSeen < rule.delayMs)
                    continue;
                const event = this.fire(hit, text, at, 1);
                appearance.attempts = 1;
                appearance.lastAttempt = at;
                if (event && isAnswer(rule))
                    this.answersGiven++;
                appearance.workingAtAttempt = this.workingSeq;
                appearance.answersAtAttempt = this.answersGiven;
                if (!event)
                    appearance.spent = true;
                else {
                    events.push(event);
                    if (rule.kind === COMPLETION_KIND)
                        this.completionFired(current);
                }
                continue;
            }
            if (isAnswer(rule) &&
                rule.retryAfterMs !== null &&
                appearance.attempts < rule.maxAttempts &&
                at - appearance.lastAttempt >= rule.retryAfterMs &&
                !this.movedOn(appearance)) {
                appearance.attempts++;
                appearance.lastAttempt = at;
                events.push(this.event(hit, text, at, this.fireCounts[hit.rule], appearance.attempts));
            }
        }
        // Only what is on screen now is remembered: whatever left comes back as a new appearance.
        this.appearances = { buffer, keys: current, presetOnLine: currentPresets };
        return events;
    }
    /**
     * The agent moved on since this appearance was last answered — it worked, or proctor answered another
     * prompt — so the line still on screen is a leftover, not a prompt that missed its answer: a TUI that
     * redraws over a closed dialog can leave its lines visible (Claude Code 2.1.197), and keys sent at such a
     * leftover land elsewhere (an Enter picks the next dialog's default, an Up recalls the last prompt).
     */
    movedOn(appearance) {
        return (this.workingSeq !== appearance.workingAtAttempt || this.answersGiven !== appearance.answersAtAttempt);
    }
    completionCounts(text, workingNow) {
        if (this.gatesCompletion)
            return this.workedSinceTyping && !workingNow;
        return !this.staleCompletionTexts.has(text);
    }
    /** One completion per stretch of work: the next needs the agent to work again. */
    completionFired(current) {
        if (!this.gatesCompletion)
            return;
        this.workedSinceTyping = false;
        for (const a of [...this.appearances.keys.values(), ...current.values()])
            if (this.rules[a.rule].kind === COMPLETION_KIND && a.attempts === 0)
                a.spent = true;
    }
    /** Matches lines from a LineView; each line fires a rule at most once. */
    scanLines(lines) {
        if (this.rules.length === 0)
            return [];
        const events = [];
        const at = this.clock();
        for (const line of lines) {
            const held = this.lastPresetLine === line.seq ? this.lastPresetRule : undefined;
            for (const hit of this.matchLine(line.text, held)) {
                if (this.lastLineFired[hit.rule] === line.seq)
                    continue;
                if (this.rules[hit.rule].kind === WORKING_KIND) {
                    this.lastLineFired[hit.rule] = line.seq;
                    this.workingSeq++;
                    continue;
                }
                const event = this.fire(hit, line.text, at);
                this.lastLineFired[hit.rule] = line.seq;
                if (this.rules[hit.rule].preset) {
                    this.lastPresetLine = line.seq;
                    this.lastPresetRule = hit.rule;
                }
                if (event)
                    events.push(event);
            }
        }
        return events;
    }
    /**
     * The rules that match one line: every user rule, then — only if no user rule matched — one preset.
     * A line a preset already answered (`heldPreset`) stays with that preset while it still matches, even
     * if the line grows to match an earlier preset; otherwise the first matching preset takes it.
     */
    matchLine(text, heldPreset) {
        const hits = [];
        let firstPreset = -1;
        for (let i = 0; i < this.rules.length; i++) {
            const rule = this.rules[i];
            if (rule.preset) {
                firstPreset = i;
                break;
            }
            const m = this.exec(i, text);
            if (m)
                hits.push({ rule: i, match: m });
        }
        if (hits.length > 0 || firstPreset === -1)
            return hits;
        if (heldPreset !== undefined) {
            const m = this.exec(heldPreset, text);
            if (m)
                return [{ rule: heldPreset, match: m }];
        }
        for (let i = firstPreset; i < this.rules.length; i++) {
            const m = this.exec(i, text);
            if (m)
                return [{ rule: i, match: m }];
        }
        return hits;
    }
    /**
     * Bounded, timed match (see safe-regex.ts); a rule too slow is disabled and reported. A slow match is
     * timed once more first: the clock also counts a garbage-collection pause or the process waiting for a
     * busy CPU (a 156 ms match of a trivial rule was seen beside two agents on a 2-core machine, and the
     * rule it disabled was the one that answered the next permission prompt), while a slow pattern is slow
     * again on the same line.
     */
    exec(rule, text) {
        if (this.disabled.has(rule))
            return null;
        const { match, ms } = boundedExec(this.rules[rule].regex, text);
        if (ms > SLOW_MATCH_MS) {
            const again = boundedExec(this.rules[rule].regex, text).ms;
            if (again > SLOW_MATCH_MS) {
                this.disabled.add(rule);
                this.onSlowRule?.(this.rules[rule].name, Math.min(ms, again));
            }
        }
        return match;
    }
    fire(hit, lineText, at, attempt = 1) {
        const rule = this.rules[hit.rule];
        if (rule.maxFires !== null && this.fireCounts[hit.rule] >= rule.maxFires) {
            this.suppressed++;
            return null;
        }
        const fire = ++this.fireCounts[hit.rule];
        return this.event(hit, lineText, at, fire, attempt);
    }
    event(hit, lineText, at, fire, attempt) {
        const rule = this.rules[hit.rule];
        return {
            rule: rule.name,
            kind: rule.kind,
            text: excerpt(lineText, hit.match.index, hit.match[0].length),
            match: hit.match[0].slice(0, MAX_EVENT_TEXT),
            response: { ...rule.response },
            at,
            fire,
            attempt,
            preset: rule.preset,
        };
    }
}
/** Rules that type something into the agent: the only ones delayed and repeated. */
function isAnswer(rule) {
    return rule.response.type === 'send' || rule.response.type === 'deny';
}
/** The matched line, trimmed; a very long line is cut to a window around the match. */
function excerpt(text, index, length) {
    const trimmed = text.trim();
    if (trimmed.length <= MAX_EVENT_TEXT)
        return trimmed;
    const start = Math.max(0, Math.min(index - (MAX_EVENT_TEXT - length) / 2, text.length - MAX_EVENT_TEXT));
    return text.slice(start, start + MAX_EVENT_TEXT).trim();
}

function getEnumValues(entries) {
    const numericValues = Object.values(entries).filter((v) => typeof v === "number");
    const values = Object.entries(entries)
        .filter(([k, _]) => numericValues.indexOf(+k) === -1)
        .map(([_, v]) => v);
    return values;
}
function joinValues(array, separator = "|") {
    return array.map((val) => stringifyPrimitive(val)).join(separator);
}
function jsonStringifyReplacer(_, value) {
    if (typeof value === "bigint")
        return value.toString();
    return value;
}
// the accessor lives on a shared prototype: an own accessor makes every box a dictionary-mode object (~360 B and a slow load per read against ~100 B and an inlined getter here)
class Cached {
    constructor(getter) {
        this._getter = getter;
        this._value = undefined;
    }
    get value() {
        const getter = this._getter;
        if (getter !== undefined) {
            this._value = getter();
            this._getter = undefined;
        }
        return this._value;
    }
}
function cached(getter) {
    return new Cached(getter);
}
function nullish(input) {
    return input === null || input === undefined;
}
function cleanRegex(source) {
    const start = source.startsWith("^") ? 1 : 0;
    const end = source.endsWith("$") ? source.length - 1 : source.length;
    return source.slice(start, end);
}
function floatSafeRemainder(val, step) {
    const ratio = val / step;
    const roundedRatio = Math.round(ratio);
    // `val` and `step` each round to a double before the division rounds again, so a true decimal multiple's quotient can sit up to 1.5 of these scaled epsilons from the integer. A 1x tolerance therefore rejected 2.03 as a multiple of 0.07; 4x covers the worst case with margin.
    const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1);
    if (Math.abs(ratio - roundedRatio) < tolerance)
        return 0;
    return ratio - roundedRatio;
}
function assignProp(target, prop, value) {
    Object.defineProperty(target, prop, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
    });
}
/**
 * Whichever object a def's `shape` currently answers from: the one the caller passed until the first read, the frozen copy after it.
 *
 * Its keys and descriptors read without invoking anything, which is what lets a discriminated union check its discriminator, and the cycle walk read a shape, without resolving a getter that references the schema being constructed. A def that answers `shape` from an accessor of its own has none.
 */
function rawShape(def) {
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    return desc?.get ? desc.get.raw : desc?.value;
}
// where a builder reads its source's keys and descriptors, resolving only a shape a def answers for itself. A shape resolves by object spread, so only its enumerable keys are ever part of it.
function sourceShape(schema) {
    return rawShape(schema._zod.def) ?? schema._zod.def.shape;
}
// a key whose value is not settled yet, self-caching so every read after the first gets the same one
function deferProp(target, key, getter) {
    Object.defineProperty(target, key, {
        get() {
            const value = getter();
            assignProp(this, key, value);
            return value;
        },
        enumerable: true,
        configurable: true,
    });
}
// Writes a settled key. A plain assignment is much cheaper than `defineProperty` and produces the same descriptor, but it runs whatever setter already answers to the key — an accessor this shape deferred, or an inherited one, which `__proto__` has on every object and prototype pollution can add for any name.
function putProp(target, key, value) {
    if (key in target)
        assignProp(target, key, value);
    else
        target[key] = value;
}
/**
 * Copies `keys` of `source`'s shape onto `target`, each value passed through `wrap`.
 *
 * A key the source has resolved is copied through now, so the derived shape states it outright and nothing has to resolve it to learn what it holds. A key the source still defers stays deferred, and reads back through the source's own `shape`, so it resolves once and both shapes get that one schema.
 */
function mirrorShape(target, source, keys, wrap) {
    const raw = sourceShape(source);
    for (const key of keys) {
        const desc = Object.getOwnPropertyDescriptor(raw, key);
        if (!desc.enumerable)
            continue;
        if (desc.get) {
            deferProp(target, key, () => {
                const value = source._zod.def.shape[key];
                return wrap ? wrap(value, key) : value;
            });
        }
        else
            putProp(target, key, wrap ? wrap(desc.value, key) : desc.value);
    }
}
// same, for a plain shape a caller passed rather than a schema's
function mirrorProps(target, source) {
    for (const key of Reflect.ownKeys(source)) {
        const desc = Object.getOwnPropertyDescriptor(source, key);
        if (!desc.enumerable)
            continue;
        if (desc.get)
            deferProp(target, key, () => source[key]);
        else
            putProp(target, key, desc.value);
    }
}
function mergeDefs(...defs) {
    const mergedDescriptors = {};
    for (const def of defs) {
        const descriptors = Object.getOwnPropertyDescriptors(def);
        Object.assign(mergedDescriptors, descriptors);
    }
    return Object.defineProperties({}, mergedDescriptors);
}
function esc(str) {
    return JSON.stringify(str);
}
function slugify(input) {
    return input
        .toLowerCase()
        .trim()
        .replace(/[^\w\s-]/g, "")
        .replace(/[\s_-]+/g, "-")
        .replace(/^-+|-+$/g, "");
}
const captureStackTrace = ("captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => { });
function isObject$2(data) {
    return typeof data === "object" && data !== null && !Array.isArray(data);
}
const allowsEval = /* @__PURE__*/ cached(() => {
    // Skip the probe under `jitless`: strict CSPs report the caught `new Function` as a `securitypolicyviolation` even though the throw is swallowed.
    if (globalConfig.jitless) {
        return false;
    }
    // @ts-ignore
    if (typeof navigator !== "undefined" && navigator?.userAgent?.includes("Cloudflare")) {
        return false;
    }
    try {
        const F = Function;
        new F("");
        return true;
    }
    catch (_) {
        return false;
    }
});
function isPlainObject(o) {
    if (isObject$2(o) === false)
        return false;
    // modified constructor
    const ctor = o.constructor;
    if (ctor === undefined)
        return true;
    if (typeof ctor !== "function")
        return true;
    // modified prototype
    const prot = ctor.prototype;
    if (isObject$2(prot) === false)
        return false;
    // ctor doesn't have static `isPrototypeOf`
    if (Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf") === false) {
        return false;
    }
    return true;
}
function shallowClone(o) {
    if (isPlainObject(o))
        return { ...o };
    if (Array.isArray(o))
        return [...o];
    if (o instanceof Map)
        return new Map(o);
    if (o instanceof Set)
        return new Set(o);
    return o;
}
const propertyKeyTypes = /* @__PURE__*/ new Set(["string", "number", "symbol"]);
function escapeRegex(str) {
    return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
// zod-specific utils
function clone(inst, def, params) {
    const cl = new inst._zod.constr(def ?? inst._zod.def);
    if (!def || params?.parent)
        cl._zod.parent = inst;
    return cl;
}
function normalizeParams(_params) {
    const params = _params;
    if (!params)
        return {};
    if (typeof params === "string")
        return { error: () => params };
    if (params?.message !== undefined) {
        if (params?.error !== undefined)
            throw new Error("Cannot specify both `message` and `error` params");
        params.error = params.message;
    }
    delete params.message;
    if (typeof params.error === "string")
        return { ...params, error: () => params.error };
    return params;
}
function stringifyPrimitive(value) {
    if (typeof value === "bigint")
        return value.toString() + "n";
    if (typeof value === "string")
        return `"${value}"`;
    return `${value}`;
}
function optionalKeys(shape) {
    return Object.keys(shape).filter((k) => {
        return shape[k]._zod.optin !== undefined && shape[k]._zod.optout === "optional";
    });
}

const NUMBER_FORMAT_RANGES = /*@__PURE__*/ (() => ({
    safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    int32: [-2147483648, 2147483647],
    uint32: [0, 4294967295],
    float32: [-34028234663852886e22, 3.4028234663852886e38],
    float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
}))();
const BIGINT_FORMAT_RANGES = {
    int64: [/* @__PURE__*/ BigInt("-9223372036854775808"), /* @__PURE__*/ BigInt("9223372036854775807")],
    uint64: [/* @__PURE__*/ BigInt(0), /* @__PURE__*/ BigInt("18446744073709551615")],
};
function pick(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".pick() cannot be used on object schemas containing refinements");
    }
    const newShape = {};
    mirrorShape(newShape, schema, maskedKeys(schema, mask));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
// the mask keys that select something, checked against the source's shape without resolving it
function maskedKeys(schema, mask) {
    const raw = sourceShape(schema);
    const keys = [];
    // `for...in` skips symbols, so a symbol in the mask would select nothing
    for (const key of Reflect.ownKeys(mask)) {
        if (!Object.getOwnPropertyDescriptor(raw, key)?.enumerable) {
            throw new Error(`Unrecognized key: "${String(key)}"`);
        }
        if (mask[key])
            keys.push(key);
    }
    return keys;
}
function omit(schema, mask) {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(".omit() cannot be used on object schemas containing refinements");
    }
    const omitted = new Set(maskedKeys(schema, mask));
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)).filter((key) => !omitted.has(key)));
    return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function extend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to extend: expected a plain object");
    }
    const checks = schema._zod.def.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        // Only throw if new shape overlaps with existing shape. Use getOwnPropertyDescriptor to check key existence without accessing values
        const existingShape = sourceShape(schema);
        for (const key of Reflect.ownKeys(shape)) {
            if (Object.getOwnPropertyDescriptor(existingShape, key) !== undefined) {
                throw new Error("Cannot overwrite keys on object schemas containing refinements. Use `.safeExtend()` instead.");
            }
        }
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
// the source's keys, then the caller's overlaid on top
function extended(schema, shape) {
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)));
    mirrorProps(newShape, shape);
    return newShape;
}
function safeExtend(schema, shape) {
    if (!isPlainObject(shape)) {
        throw new Error("Invalid input to safeExtend: expected a plain object");
    }
    return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function merge$2(a, b) {
    if (!b?._zod?.def) {
        throw new Error("Invalid input to merge: expected an object schema. To merge a plain shape, use `.extend()`.");
    }
    if (a._zod.def.checks?.length) {
        throw new Error(".merge() cannot be used on object schemas containing refinements. Use .safeExtend() instead.");
    }
    const newShape = {};
    mirrorShape(newShape, a, Reflect.ownKeys(sourceShape(a)));
    mirrorShape(newShape, b, Reflect.ownKeys(sourceShape(b)));
    const def = mergeDefs(a._zod.def, {
        shape: newShape,
        get catchall() {
            return b._zod.def.catchall;
        },
        checks: b._zod.def.checks ?? [],
    });
    return clone(a, def);
}
function partial(Class, schema, mask, name = "partial") {
    const currDef = schema._zod.def;
    const checks = currDef.checks;
    const hasChecks = checks && checks.length > 0;
    if (hasChecks) {
        throw new Error(`.${name}() cannot be used on object schemas containing refinements`);
    }
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), Class &&
        ((value, key) => (selected && !selected.has(key) ? value : new Class({ type: "optional", innerType: value }))));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape, checks: [] }));
}
function required(Class, schema, mask) {
    const selected = mask ? new Set(maskedKeys(schema, mask)) : undefined;
    const newShape = {};
    mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), (value, key) => 
    // overwrite with non-optional
    selected && !selected.has(key) ? value : new Class({ type: "nonoptional", innerType: value }));
    return clone(schema, mergeDefs(schema._zod.def, { shape: newShape }));
}
// invalid_type | too_big | too_small | invalid_format | not_multiple_of | unrecognized_keys | invalid_union | invalid_key | invalid_element | invalid_value | custom
function aborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue !== true) {
            return true;
        }
    }
    return false;
}
// Checks for explicit abort (continue === false), as opposed to implicit abort (continue === undefined). Used to respect `abort: true` in .refine() even for checks that have a `when` function.
function explicitlyAborted(x, startIndex = 0) {
    if (x.aborted === true)
        return true;
    for (let i = startIndex; i < x.issues.length; i++) {
        if (x.issues[i]?.continue === false) {
            return true;
        }
    }
    return false;
}
function prefixIssues(path, issues) {
    return issues.map((iss) => {
        var _a;
        (_a = iss).path ?? (_a.path = []);
        iss.path.unshift(path);
        return iss;
    });
}
function unwrapMessage(message) {
    return typeof message === "string" ? message : message?.message;
}
/* A check holds no link back to the schema it is attached to — the same check instance is shared by every clone of that schema — so the owner is stamped onto the issues a check just raised, at the only point where both are in scope. Runs on the failure path only; `start` is the issue count from before the check ran. */
/** The leading size checks of `defChecks` that set an upper bound, each paired with it. */
function sizeCaps(defChecks) {
    const caps = [];
    for (const ch of defChecks ?? []) {
        const d = ch._zod.def;
        // a later check may rewrite the value
        if (!/_(length|size)$|_equals$/.test(d.check))
            break;
        const max = d.maximum ?? d.length ?? d.size;
        if (max >= 0)
            caps.push([max, ch]);
    }
    return caps;
}
function attachSchema(issues, start, inst) {
    var _a;
    for (let i = start; i < issues.length; i++) {
        (_a = issues[i]).schema ?? (_a.schema = inst);
    }
}
function finalizeIssue(iss, ctx, config) {
    var _a;
    // A schema that raised an issue itself owns it outright, and outranks any stamp an enclosing check left in `attachSchema`. String formats and z.custom() are schema and check at once, so when they act as a check they defer to that stamp instead.
    const traits = iss.inst?._zod?.traits;
    if (traits?.has("$ZodType")) {
        if (traits.has("$ZodCheck"))
            (_a = iss).schema ?? (_a.schema = iss.inst);
        else
            iss.schema = iss.inst;
    }
    // Decreasing specificity, first map to return a message wins. `inst` is whatever raised the issue, so a check's own map outranks the owning schema's.
    const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : undefined;
    const message = iss.message
        ? iss.message
        : (unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ??
            unwrapMessage(schemaError?.(iss)) ??
            unwrapMessage(ctx?.error?.(iss)) ??
            unwrapMessage(config.customError?.(iss)) ??
            unwrapMessage(config.localeError?.(iss)) ??
            "Invalid input");
    // an explicit own-key copy beats object rest with excluded keys, which v8 routes through a generic runtime call; Object.keys rather than for-in so an issue pushed with a prototype does not leak inherited keys, and an own __proto__ key is dropped rather than assigned through the setter
    const full = {};
    for (const k of Object.keys(iss)) {
        if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
            continue;
        full[k] = iss[k];
    }
    full.path ?? (full.path = []);
    full.message = message;
    if (ctx?.reportInput) {
        full.input = iss.input;
    }
    return full;
}
const highSurrogate = /[\uD800-\uDBFF]/;
// Code points in `str`: a surrogate pair counts once, a lone surrogate as itself. Hand-rolled because the string iterator allocates and runs ~250x slower on this path; the regex probe exits ~50x quicker for a string with no astral characters.
function codePointLength(str) {
    const units = str.length;
    if (!highSurrogate.test(str))
        return units;
    let count = units;
    for (let i = 0; i < units - 1; i++) {
        if ((str.charCodeAt(i) & 0xfc00) === 0xd800 && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            count--;
            i++;
        }
    }
    return count;
}
function getLengthableOrigin(input) {
    if (Array.isArray(input))
        return "array";
    if (typeof input === "string")
        return "string";
    return "unknown";
}
function parsedType(data) {
    const t = typeof data;
    switch (t) {
        case "number": {
            return Number.isNaN(data) ? "nan" : "number";
        }
        case "object": {
            if (data === null) {
                return "null";
            }
            if (Array.isArray(data)) {
                return "array";
            }
            const obj = data;
            if (obj && Object.getPrototypeOf(obj) !== Object.prototype && "constructor" in obj && obj.constructor) {
                return obj.constructor.name;
            }
        }
    }
    return t;
}
function issue(...args) {
    const [iss, input, inst] = args;
    if (typeof iss === "string") {
        return {
            message: iss,
            code: "custom",
            input,
            inst,
        };
    }
    return { ...iss };
}
//////////    PROTOTYPE INSTALLERS     //////////
//
// Members live on the prototype and materialize per instance on first read, which keeps own-property count under the step where V8 stops using inline slots. Changing anything here means re-measuring runtime, memory and bundle size together — see "The three axes" in AGENTS.md.
/**
 * Installs a trait's members on its prototype. Each value builds that member for the instance on first read; the built value shadows the accessor as an own property, so a detached `const { parse } = schema` keeps working.
 *
 * Call this from a `proto` initializer, which runs once per prototype — never per instance.
 */
function members(proto, table) {
    for (const key in table) {
        const desc = Object.getOwnPropertyDescriptor(table, key);
        // a getter installs as written, so it stays live: `description` reads through to the registry on every access. not enumerable: an object literal's is, and a prototype member never was
        if (desc.get)
            Object.defineProperty(proto, key, { ...desc, enumerable: false });
        // a method materializes bound on first read, which is what keeps a detached member working: `const opt = schema.optional; opt()`
        else
            defineBound(proto, key, desc.value);
    }
}
/** Shadows a prototype member with an own value, so a getter that builds from the instance runs once. */
function own(inst, key, value, enumerable = true) {
    Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value });
    return value;
}
/** Like {@link own}, for a member that was never an own data property and has to stay out of `Object.keys`. */
function hide(inst, key, value) {
    return own(inst, key, value, false);
}
/** Adds members a table derives from the instance: each builds on first read and shadows as own data, and assignment shadows the same way, as when these were own properties. */
function derived(computes, table) {
    for (const key in computes) {
        const compute = computes[key];
        // an object literal's accessor is configurable and enumerable, and `members` copies the descriptor as written
        Object.defineProperty(table, key, {
            configurable: true,
            enumerable: true,
            get() {
                return own(this, key, compute(this));
            },
            set(value) {
                own(this, key, value);
            },
        });
    }
    return table;
}
function defineBound(proto, key, fn) {
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // vitest's spyOn calls a prototype getter bare to find the function it wraps, so a nullish receiver answers the raw method
            return this == null ? fn : own(this, key, fn.bind(this));
        },
        set(value) {
            own(this, key, value);
        },
    });
}
/** Returns the prototype to install on, or `undefined` if this group is already installed on it. */
function claim(inst, sentinel) {
    const proto = Object.getPrototypeOf(inst);
    // Runs on every construction, so `in` rather than the costlier `hasOwnProperty.call`. Sentinels are keys the group itself defines.
    return sentinel in proto ? undefined : proto;
}
// The internals whose init chain is installing. A second call for the same one is a derived constructor overriding its base, so it must not construct another schema in between or the override is dropped.
let installing;
// Set while a getter is running, so a value that resolved through a recursion break is not memoized. One shared descriptor shadows the key for the duration, which costs no per-key allocation.
let broke = false;
const breaker = {
    configurable: true,
    get() {
        broke = true;
        return undefined;
    },
};
/**
 * Installs a lazily-derived internal on the `_zod` prototype of `inst`'s
 * constructor, computed from the internals object itself and cached there on
 * first read. One accessor per constructor rather than one per instance.
 */
function defineLazyInternal(inst, key, compute) {
    const proto = Object.getPrototypeOf(inst._zod);
    if (key in proto && installing !== inst._zod) {
        // A repeat construction: everything is installed already. Cleared here so the reference is not held past the first construction of every type.
        installing = undefined;
        return;
    }
    installing = inst._zod;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing so a re-entrant read from a recursive schema resolves to undefined instead of running the getter again.
            Object.defineProperty(this, key, breaker);
            const outer = broke;
            broke = false;
            try {
                const value = compute(this);
                // A result that resolved through a recursion break is recomputed once the graph is complete; everything else memoizes, undefined included.
                if (broke)
                    delete this[key];
                else
                    Object.defineProperty(this, key, { configurable: true, writable: true, value });
                broke = broke || outer;
                return value;
            }
            catch (err) {
                // A compute that threw memoizes nothing, so a later read runs it again and fails the same way. The shadow goes with it, since leaving it installed would answer undefined for every later read.
                delete this[key];
                broke = broke || outer;
                throw err;
            }
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, value });
        },
    });
}
/**
 * Installs `key` on `inst`'s prototype, computed by `make` on first read and cached there as an own
 * data property. One accessor per constructor rather than one per instance, because an own accessor
 * puts every instance after the first into v8 dictionary mode. The key doubles as the sentinel.
 */
function installLazyProp(inst, key, make, enumerable) {
    const proto = claim(inst, key);
    if (!proto)
        return;
    Object.defineProperty(proto, key, {
        configurable: true,
        get() {
            // Shadowed before computing, so a re-entrant read from a self-referential shape resolves to undefined instead of running the getter again. A data property rather than an accessor: an own accessor is the dictionary-mode transition this exists to avoid.
            const desc = { configurable: true, writable: true, enumerable, value: undefined };
            Object.defineProperty(this, key, desc);
            // a compute that throws leaves the shadow behind, so later reads answer undefined instead of re-throwing; `defineLazy` did the same, and `defineLazyInternal`'s delete-on-catch would cost bytes in every bundle for a case only a throwing user getter reaches
            desc.value = make(this);
            Object.defineProperty(this, key, desc);
            return desc.value;
        },
        set(value) {
            Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value });
        },
    });
}
/** Marks the thunk `_catch` synthesises for a constant catch value. `Function.length` cannot tell that thunk from a user callback — rest and defaulted parameters both report arity 0 — and a user callback reads `ctx.error`, whose issues only finalize correctly against the caller's per-parse error map. Provenance can say what arity cannot. A plain string key rather than `Symbol.for`, whose call at module scope no bundler can prove pure — the same shape that anchored `urlCanParse` into every build. */
const CONSTANT_CATCH = "~constantCatch";
/** Wraps a constant catch value in a thunk tagged with {@link CONSTANT_CATCH}. */
function constantCatch(value) {
    const fn = () => value;
    fn[CONSTANT_CATCH] = true;
    return fn;
}

var _a$1;
/** A special constant with type `never` */
const NEVER = /*@__PURE__*/ Object.freeze({
    status: "aborted",
});
/* Shared descriptor for installing `_zod`; defineProperty reads it
 * synchronously, so reusing one object avoids a per-instance allocation. */
const _zodDesc = { value: undefined, enumerable: false };
// null where suppressing the capture would be unrecoverable: `parse()` puts the frames back with `captureStackTrace`, so without it the throw would lose its stack. also latched to null once `stackTraceLimit` proves unassignable, which a realm can do at any point by hardening Error
let _E = "captureStackTrace" in Error ? Error : null;
// v8 captures a stack trace inside the Error constructor, which dominates a failed parse; costs only the frames, and parse() restores those. the constructor must RUN: Object.create is cheaper and passes instanceof, but Error.isError and util.types.isNativeError check an internal slot
function newError(Definition) {
    const E = _E;
    if (E) {
        const saved = E.stackTraceLimit;
        if (typeof saved === "number") {
            try {
                E.stackTraceLimit = 0;
            }
            catch {
                _E = null;
                return new Definition();
            }
            try {
                return new Definition();
            }
            finally {
                E.stackTraceLimit = saved;
            }
        }
    }
    return new Definition();
}
function $constructor(name, initializer, 
/** This trait's members, installed once on every prototype that composes it. They cannot be declared in the initializer above: that runs per instance, and the prototype is shared. */
proto, params) {
    // Prototype for this constructor's `_zod` internals. Lazily-derived fields (`values`, `pattern`, `optin`, …) install here once rather than as an accessor on every instance.
    const zodProto = {};
    // Assigning the fields in the constructor body is what gives instances in-object slots; building the object literally and reparenting it costs a second allocation and a generic property copy.
    function Internals(def) {
        this.def = def;
        this.constr = _;
        this.traits = new Set();
    }
    Internals.prototype = zodProto;
    const protoMembers = proto;
    // One trait's members land on every prototype whose chain composes it, so the answer is per prototype rather than per trait.
    const initialized = protoMembers && new WeakSet();
    function init(inst, def) {
        if (!inst._zod) {
            _zodDesc.value = new Internals(def);
            try {
                Object.defineProperty(inst, "_zod", _zodDesc);
            }
            finally {
                // Cleared even on throw, so the shared descriptor never leaks one instance's internals into the next.
                _zodDesc.value = undefined;
            }
        }
        else if (inst._zod.traits.has(name)) {
            return;
        }
        inst._zod.traits.add(name);
        initializer(inst, def);
        if (initialized) {
            // `super(def)` from a user subclass gives `this` a prototype the subclass owns, and installing there would overwrite whatever the subclass declared. `constr` built the instance, so its prototype is the one below the subclass's that should carry the members. A receiver whose chain never reaches that prototype installs on its own, which for a plain object handed straight to `init` means `Object.prototype` — unchanged from before.
            const own = Object.getPrototypeOf(inst);
            const ctorProto = inst._zod.constr.prototype;
            let up = own;
            while (up && up !== ctorProto)
                up = Object.getPrototypeOf(up);
            const target = up ?? own;
            if (!initialized.has(target)) {
                initialized.add(target);
                members(target, protoMembers);
            }
        }
        // support prototype modifications; for-in avoids the array allocation of Object.keys on the (usually empty) prototype
        const proto = _.prototype;
        for (const k in proto) {
            if (!Object.prototype.hasOwnProperty.call(proto, k))
                continue;
            if (!(k in inst)) {
                inst[k] = proto[k].bind(inst);
            }
        }
    }
    // doesn't work if Parent has a constructor with arguments
    const Parent = params?.Parent ?? Object;
    class Definition extends Parent {
    }
    Object.defineProperty(Definition, "name", { value: name });
    function _(def) {
        const inst = params?.Parent ? newError(Definition) : this;
        init(inst, def);
        const deferred = inst._zod.deferred;
        if (deferred) {
            for (const fn of deferred) {
                fn();
            }
            // Released: initializers run once, and the list would otherwise be retained for the schema's lifetime.
            inst._zod.deferred = undefined;
        }
        // Global post-processor hook. Internal: installed by `import "zod/compile"` to enable AOT compilation for every constructed schema. Runs last, once the instance is fully built, because it hands the instance to compile(). The post-processor is expected to be reentrancy-guarded by its own implementation.
        const pp = globalThis.__zod_globalConfig?.postProcessor;
        if (pp)
            pp(inst);
        return inst;
    }
    Object.defineProperty(_, "init", { value: init });
    Object.defineProperty(_, Symbol.hasInstance, {
        value: (inst) => {
            if (params?.Parent && inst instanceof params.Parent)
                return true;
            return inst?._zod?.traits?.has(name);
        },
    });
    Object.defineProperty(_, "name", { value: name });
    return _;
}
class $ZodAsyncError extends Error {
    constructor() {
        super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
    }
}
class $ZodEncodeError extends Error {
    constructor(name) {
        super(`Encountered unidirectional transform during encode: ${name}`);
        this.name = "ZodEncodeError";
    }
}
(_a$1 = globalThis).__zod_globalConfig ?? (_a$1.__zod_globalConfig = {});
const globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
    if (newConfig)
        Object.assign(globalConfig, newConfig);
    return globalConfig;
}

/* Computing the message eagerly is expensive (pretty-printed JSON of all
 * issues), so defer it until first read. The accessor functions and
 * descriptors are shared across instances to keep error construction
 * cheap; the computed message is cached on the internals object. The
 * setter preserves plain assignment semantics for consumers that
 * overwrite `message`. */
function _getMessage() {
    const internals = this._zod;
    internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
    return internals.message;
}
function _setMessage(value) {
    this._zod.message = value;
}
const _messageDesc = {
    get: _getMessage,
    set: _setMessage,
    enumerable: true,
    configurable: true,
};
const _issuesDesc = { value: undefined, enumerable: false };
/* Prototypes that already carry the lazy `toString`. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
const initializer$1 = (inst, def) => {
    inst.name = "$ZodError";
    // `_zod` is already non-enumerable: $constructor's init defined it with this same descriptor
    _issuesDesc.value = def;
    Object.defineProperty(inst, "issues", _issuesDesc);
    // Clear the shared slot; a retained `value` pins the last error's issues.
    _issuesDesc.value = undefined;
    Object.defineProperty(inst, "message", _messageDesc);
    /* `toString` lives as a non-enumerable lazy getter on the shared
     * prototype; on first access it caches a per-instance closure so
     * detached usage still works. */
    const proto = Object.getPrototypeOf(inst);
    if (!_installedToString.has(proto)) {
        _installedToString.add(proto);
        Object.defineProperty(proto, "toString", {
            configurable: true,
            enumerable: false,
            get() {
                const value = () => this.message;
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
                return value;
            },
            set(value) {
                Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
            },
        });
    }
};
const $ZodError = $constructor("$ZodError", initializer$1);
/** Get-or-create `obj[key]` as an own data property. A path segment naming an inherited member
 * ("toString", "constructor") would otherwise read through to the prototype, and assigning
 * "__proto__" would hit the setter instead of creating a key. */
function node(obj, key, make) {
    if (!Object.prototype.hasOwnProperty.call(obj, key)) {
        if (key === "__proto__") {
            Object.defineProperty(obj, key, { value: make(), writable: true, enumerable: true, configurable: true });
        }
        else {
            obj[key] = make();
        }
    }
    return obj[key];
}
function flattenError(error, mapper = (issue) => issue.message) {
    const fieldErrors = {};
    const formErrors = [];
    for (const sub of error.issues) {
        if (sub.path.length > 0) {
            node(fieldErrors, sub.path[0], () => []).push(mapper(sub));
        }
        else {
            formErrors.push(mapper(sub));
        }
    }
    return { formErrors, fieldErrors };
}
function formatError(error, mapper = (issue) => issue.message) {
    const fieldErrors = { _errors: [] };
    const processError = (error, path = []) => {
        for (const issue of error.issues) {
            if (issue.code === "invalid_union" && issue.errors.length) {
                issue.errors.map((issues) => processError({ issues }, [...path, ...issue.path]));
            }
            else if (issue.code === "invalid_key") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else if (issue.code === "invalid_element") {
                processError({ issues: issue.issues }, [...path, ...issue.path]);
            }
            else {
                const fullpath = [...path, ...issue.path];
                if (fullpath.length === 0) {
                    fieldErrors._errors.push(mapper(issue));
                }
                else {
                    let curr = fieldErrors;
                    let i = 0;
                    while (i < fullpath.length) {
                        const el = fullpath[i];
                        const terminal = i === fullpath.length - 1;
                        // `_errors` is reserved by this legacy format, so merge a matching path segment into the current node instead of treating its array as a child.
                        if (el === "_errors") {
                            if (terminal)
                                curr._errors.push(mapper(issue));
                            i++;
                            continue;
                        }
                        // A path element may collide with an inherited property name such as
                        // "__proto__" or "constructor". Truthiness checks read the prototype
                        // (so no node is created, then ._errors.push throws), and bracket
                        // assignment of "__proto__" hits the setter instead of creating an
                        // own key. Guard the read with hasOwnProperty and create the node
                        // with defineProperty so any path element becomes a real own key.
                        if (!Object.prototype.hasOwnProperty.call(curr, el)) {
                            Object.defineProperty(curr, el, {
                                value: { _errors: [] },
                                enumerable: true,
                                writable: true,
                                configurable: true,
                            });
                        }
                        const node = curr[el];
                        if (terminal) {
                            node._errors.push(mapper(issue));
                        }
                        curr = node;
                        i++;
                    }
                }
            }
        }
    };
    processError(error);
    return fieldErrors;
}

// Always both keys, so the `_params` read site in `_parse` sees one object shape rather than two.
function finalizeParams(callee, params) {
    return { callee: params?.callee ?? callee, Err: params?.Err };
}
const _parse = (_Err) => {
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
        const result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise) {
            throw new $ZodAsyncError();
        }
        if (result.issues.length) {
            const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, _params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const _parseAsync = (_Err) => {
    const fn = async (schema, value, _ctx, params) => {
        const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
        let result = schema._zod.run({ value, issues: [] }, ctx);
        if (result instanceof Promise)
            result = await result;
        if (result.issues.length) {
            const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
            captureStackTrace(e, params?.callee ?? fn);
            throw e;
        }
        return result.value;
    };
    return fn;
};
const _safeParse = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
// the error is built on the first read of `error`: finalizing the issues and constructing the instance is most of a failing parse, and a caller that only branches on `success` never pays it. a getter in the literal keeps this small; the alternative, one shared accessor descriptor plus a hidden state slot, reads ~15% faster but costs ~75 B gzipped in every bundle
function failure(Err, issues, ctx) {
    let error;
    return {
        success: false,
        get error() {
            if (!error) {
                error = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
                // finalizeIssue drops `input`, so the built error holds nothing; keeping the raw issues past this point pins the parsed value for the life of the result
                issues = undefined;
                ctx = undefined;
            }
            return error;
        },
        set error(e) {
            error = e;
            // a replacement makes the getter's branch unreachable, so the captures have to go here too
            issues = undefined;
            ctx = undefined;
        },
    };
}
const _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
// registry mirrors of the compiler's sentinels, so this module never imports the compiler
const COMPILE_INVALID = /* @__PURE__ */ Symbol.for("zod.compile.invalid");
const COMPILE_FALLBACK = /* @__PURE__ */ Symbol.for("zod.compile.fallback");
// Deliberately tiny, because v8 will not inline a body carrying the fallback's object literals and throw. Everything that is not the compiled happy path lives in validateFallback, and that split is worth ~35% on a compiled schema.
const validate = ((schema, value, _ctx) => {
    const validator = schema._zod.bag.validator;
    if (validator !== undefined) {
        if (validator(value) !== COMPILE_INVALID)
            return true;
        // a definite sentinel means the runtime would reject, so skip the re-parse; a ctx can still change the answer
        if (validator.definite === true && _ctx === undefined)
            return false;
    }
    return validateFallback(schema, value, _ctx);
});
function validateFallback(schema, value, _ctx) {
    const ctx = _ctx
        ? { ..._ctx, async: false, abortEarly: true }
        : { async: false, abortEarly: true };
    const fallbackRun = schema._zod.bag.fallbackRun;
    let result;
    if (fallbackRun) {
        // skip nested fast paths on the fallback, so user callbacks keep the at-most-twice bound
        ctx[COMPILE_FALLBACK] = true;
        result = fallbackRun({ value, issues: [] }, ctx);
    }
    else {
        result = schema._zod.run({ value, issues: [] }, ctx);
    }
    if (result instanceof Promise) {
        throw new $ZodAsyncError();
    }
    return result.issues.length === 0;
}
// no fast path: the compiler keeps async parses on the runtime, because a promise-returning callback that is not declared async compiles to a throw
const validateAsync$1 = async (schema, value, _ctx) => {
    const ctx = _ctx
        ? { ..._ctx, async: true, abortEarly: true }
        : { async: true, abortEarly: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
        result = await result;
    return result.issues.length === 0;
};
const _encode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return parse(schema, value, ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const _decode = (_Err) => {
    const parse = _parse(_Err);
    const fn = (schema, value, _ctx, _params) => {
        return parse(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const _encodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return (await parseAsync(schema, value, ctx, finalizeParams(fn, _params)));
    };
    return fn;
};
const _decodeAsync = (_Err) => {
    const parseAsync = _parseAsync(_Err);
    const fn = async (schema, value, _ctx, _params) => {
        return await parseAsync(schema, value, _ctx, finalizeParams(fn, _params));
    };
    return fn;
};
const _safeEncode = (_Err) => (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParse(_Err)(schema, value, ctx);
};
const _safeDecode = (_Err) => (schema, value, _ctx) => {
    return _safeParse(_Err)(schema, value, _ctx);
};
const _safeEncodeAsync = (_Err) => async (schema, value, _ctx) => {
    const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
    return _safeParseAsync(_Err)(schema, value, ctx);
};
const _safeDecodeAsync = (_Err) => async (schema, value, _ctx) => {
    return _safeParseAsync(_Err)(schema, value, _ctx);
};

/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const cuid = /^[cC][0-9a-z]{6,}$/;
const cuid2 = /^[0-9a-z]+$/;
const ulid = /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/;
const xid = /^[0-9a-vA-V]{20}$/;
const ksuid = /^[A-Za-z0-9]{27}$/;
const nanoid = /^[a-zA-Z0-9_-]{21}$/;
function nanoidOfLength(length) {
    return new RegExp(`^[a-zA-Z0-9_-]{${length}}$`);
}
/** ISO 8601-1 duration regex. Does not support the 8601-2 extensions like negative durations or fractional/negative components. */
const duration$1 = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
/** A regex for any UUID-like identifier: 8-4-4-4-12 hex pattern */
const guid = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
/** Returns a regex for validating an RFC 9562/4122 UUID.
 *
 * @param version Optionally specify a version 1-8. If no version is specified, all versions are supported. */
const uuid = (version) => {
    if (!version)
        return /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
    return new RegExp(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${version}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$`);
};
/** Practical email validation */
const email = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
// from https://thekevinscott.com/emojis-in-javascript/#writing-a-regular-expression
// Single character class, not an alternation: the two properties overlap (U+1F9B0-U+1F9B3), so `(A|B)+` backtracks exponentially on a failed match. The leading lookahead then demands one anchor — a pictograph, a regional indicator, or the enclosing keycap — because `\p{Emoji_Component}` on its own covers ASCII digits, `#`, `*`, ZWJ, variation selectors and skin tone modifiers, none of which is an emoji without a base.
const _emoji$1 = `^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
function emoji() {
    return new RegExp(_emoji$1, "u");
}
const ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const ipv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$/;
const cidrv4 = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/([0-9]|[1-2][0-9]|3[0-2])$/;
const cidrv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
// https://stackoverflow.com/questions/7860392/determine-if-string-is-in-base64-using-javascript
const base64 = /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
const base64url = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
const httpProtocol = /^https?$/;
// https://blog.stevenlevithan.com/archives/validate-phone-number#r4-3 (regex sans spaces) E.164: leading digit must be 1-9; total digits (excluding '+') between 7-15
const e164 = /^\+[1-9]\d{6,14}$/;
const dateSource = `(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`;

function anchor(source) {
    return new RegExp(`^${source}$`);
}
const date = /*@__PURE__*/ anchor(dateSource);
function timeSource(args) {
    const hhmm = `(?:[01]\\d|2[0-3]):[0-5]\\d`;
    const regex = typeof args.precision === "number"
        ? args.precision === -1
            ? `${hhmm}`
            : args.precision === 0
                ? `${hhmm}:[0-5]\\d`
                : `${hhmm}:[0-5]\\d\\.\\d{${args.precision}}`
        : args.seconds
            ? `${hhmm}:[0-5]\\d(?:\\.\\d+)?`
            : `${hhmm}(?::[0-5]\\d(?:\\.\\d+)?)?`;
    return regex;
}
function time(args) {
    return new RegExp(`^${timeSource(args)}$`);
}
// Adapted from https://stackoverflow.com/a/3143231
function datetime(args) {
    const opts = ["Z"];
    // if (args.offset) opts.push(`([+-]\\d{2}:\\d{2})`);
    if (args.offset)
        opts.push(`([+-](?:[01]\\d|2[0-3]):[0-5]\\d)`);
    // RFC 3339 mandates seconds wherever the time carries a `Z` or an offset, so only the unqualified form `local` adds may omit them
    const qualified = `${timeSource({ precision: args.precision, seconds: true })}(?:${opts.join("|")})`;
    const timeRegex = args.local ? `${qualified}|${timeSource({ precision: args.precision })}` : qualified;
    return new RegExp(`^${dateSource}T(?:${timeRegex})$`);
}
// the unbounded form of `string()` as a literal, so every plain string shares one instance instead of building its own
const anyString = /^[\s\S]{0,}$/;
const integer = /^-?\d+$/;
const number$1 = /^-?\d+(?:\.\d+)?$/;
const boolean$1 = /^(?:true|false)$/i;
// regex for string with no uppercase letters
const lowercase = /^[^A-Z]*$/;
// regex for string with no lowercase letters
const uppercase = /^[^a-z]*$/;

// import { $ZodType } from "./schemas.js";
const $ZodCheck = /*@__PURE__*/ $constructor("$ZodCheck", (inst, def) => {
    var _a;
    inst._zod ?? (inst._zod = {});
    inst._zod.def = def;
    (_a = inst._zod).onattach ?? (_a.onattach = []);
});
/** Default `when` for length-based checks: run only on non-nullish values with a `length`. */
const _whenHasLength = (payload) => {
    const val = payload.value;
    return !nullish(val) && val.length !== undefined;
};
const numericOriginMap = {
    number: "number",
    bigint: "bigint",
    object: "date",
};
const $ZodCheckLessThan = /*@__PURE__*/ $constructor("$ZodCheckLessThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value <= def.value : payload.value < def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_big",
            maximum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckGreaterThan = /*@__PURE__*/ $constructor("$ZodCheckGreaterThan", (inst, def) => {
    $ZodCheck.init(inst, def);
    const origin = numericOriginMap[typeof def.value];
    inst._zod.check = (payload) => {
        if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
            return;
        }
        payload.issues.push({
            origin: numericOriginMap[typeof payload.value] ?? origin,
            code: "too_small",
            minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
            input: payload.value,
            inclusive: def.inclusive,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMultipleOf = 
/*@__PURE__*/ $constructor("$ZodCheckMultipleOf", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        if (typeof payload.value !== typeof def.value)
            throw new Error("Cannot mix number and bigint in multiple_of check.");
        const isMultiple = typeof payload.value === "bigint"
            ? // `value % 0n` throws, and nothing is a multiple of zero — the number branch already fails this way via NaN
                def.value !== BigInt(0) && payload.value % def.value === BigInt(0)
            : floatSafeRemainder(payload.value, def.value) === 0;
        if (isMultiple)
            return;
        payload.issues.push({
            origin: typeof payload.value,
            code: "not_multiple_of",
            divisor: def.value,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckNumberFormat = /*@__PURE__*/ $constructor("$ZodCheckNumberFormat", (inst, def) => {
    $ZodCheck.init(inst, def); // no format checks
    def.format = def.format || "float64";
    const isInt = def.format?.includes("int");
    const origin = isInt ? "int" : "number";
    const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
    inst._zod.check = (payload) => {
        const input = payload.value;
        if (isInt) {
            if (!Number.isInteger(input)) {
                // invalid_format issue
                // payload.issues.push({
                //   expected: def.format,
                //   format: def.format,
                //   code: "invalid_format",
                //   input,
                //   inst,
                // });
                // invalid_type issue
                payload.issues.push({
                    expected: origin,
                    format: def.format,
                    code: "invalid_type",
                    continue: false,
                    input,
                    inst,
                });
                return;
                // not_multiple_of issue
                // payload.issues.push({
                //   code: "not_multiple_of",
                //   origin: "number",
                //   input,
                //   inst,
                //   divisor: 1,
                // });
            }
            if (!Number.isSafeInteger(input)) {
                if (input > 0) {
                    // too_big
                    payload.issues.push({
                        input,
                        code: "too_big",
                        maximum: Number.MAX_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                else {
                    // too_small
                    payload.issues.push({
                        input,
                        code: "too_small",
                        minimum: Number.MIN_SAFE_INTEGER,
                        note: "Integers must be within the safe integer range.",
                        inst,
                        origin,
                        inclusive: true,
                        continue: !def.abort,
                    });
                }
                return;
            }
        }
        if (input < minimum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_small",
                minimum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
        if (input > maximum) {
            payload.issues.push({
                origin: "number",
                input,
                code: "too_big",
                maximum,
                inclusive: true,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodCheckMaxLength = /*@__PURE__*/ $constructor("$ZodCheckMaxLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // Strings are measured in Unicode code points, not UTF-16 units. A code point is at most two units, so a string that already fits in units fits in code points; only an overflow has to be counted.
        const length = typeof input === "string" && units > def.maximum ? codePointLength(input) : units;
        if (length <= def.maximum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_big",
            maximum: def.maximum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckMinLength = /*@__PURE__*/ $constructor("$ZodCheckMinLength", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so fewer units than the floor can never reach it and twice the floor always clears it. Only in between is the exact count in doubt.
        const length = typeof input === "string" && units >= def.minimum && units < def.minimum * 2
            ? codePointLength(input)
            : units;
        if (length >= def.minimum)
            return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
            origin,
            code: "too_small",
            minimum: def.minimum,
            inclusive: true,
            input,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLengthEquals = /*@__PURE__*/ $constructor("$ZodCheckLengthEquals", (inst, def) => {
    var _a;
    $ZodCheck.init(inst, def);
    (_a = inst._zod.def).when ?? (_a.when = _whenHasLength);
    inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        // A code point is one or two UTF-16 units, so outside `[length, length * 2]` units the target is missed either way — and missed in the same direction in both measures.
        const length = typeof input === "string" && units >= def.length && units <= def.length * 2
            ? codePointLength(input)
            : units;
        if (length === def.length)
            return;
        const origin = getLengthableOrigin(input);
        const tooBig = length > def.length;
        payload.issues.push({
            origin,
            ...(tooBig ? { code: "too_big", maximum: def.length } : { code: "too_small", minimum: def.length }),
            inclusive: true,
            exact: true,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStringFormat = /*@__PURE__*/ $constructor("$ZodCheckStringFormat", (inst, def) => {
    var _a, _b;
    $ZodCheck.init(inst, def);
    if (def.pattern)
        (_a = inst._zod).check ?? (_a.check = (payload) => {
            def.pattern.lastIndex = 0;
            if (def.pattern.test(payload.value))
                return;
            payload.issues.push({
                origin: "string",
                code: "invalid_format",
                format: def.format,
                input: payload.value,
                ...(def.pattern ? { pattern: def.pattern.toString() } : {}),
                inst,
                continue: !def.abort,
            });
        });
    else
        (_b = inst._zod).check ?? (_b.check = () => { });
});
const $ZodCheckRegex = /*@__PURE__*/ $constructor("$ZodCheckRegex", (inst, def) => {
    $ZodCheckStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        def.pattern.lastIndex = 0;
        if (def.pattern.test(payload.value))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "regex",
            input: payload.value,
            pattern: def.pattern.toString(),
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckLowerCase = /*@__PURE__*/ $constructor("$ZodCheckLowerCase", (inst, def) => {
    def.pattern ?? (def.pattern = lowercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckUpperCase = /*@__PURE__*/ $constructor("$ZodCheckUpperCase", (inst, def) => {
    def.pattern ?? (def.pattern = uppercase);
    $ZodCheckStringFormat.init(inst, def);
});
const $ZodCheckIncludes = /*@__PURE__*/ $constructor("$ZodCheckIncludes", (inst, def) => {
    $ZodCheck.init(inst, def);
    const escapedRegex = escapeRegex(def.includes);
    // `String.prototype.includes(sub, position)` matches `sub` at `position`
    // OR LATER, so the pattern must allow at least `position` leading chars
    // (`{N,}`), not exactly `position` chars (`{N}`).
    const pattern = new RegExp(typeof def.position === "number" ? `^.{${def.position},}${escapedRegex}` : escapedRegex);
    def.pattern = pattern;
    inst._zod.check = (payload) => {
        if (payload.value.includes(def.includes, def.position))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "includes",
            includes: def.includes,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckStartsWith = /*@__PURE__*/ $constructor("$ZodCheckStartsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`^${escapeRegex(def.prefix)}.*`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.startsWith(def.prefix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "starts_with",
            prefix: def.prefix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckEndsWith = /*@__PURE__*/ $constructor("$ZodCheckEndsWith", (inst, def) => {
    $ZodCheck.init(inst, def);
    const pattern = new RegExp(`.*${escapeRegex(def.suffix)}$`);
    def.pattern ?? (def.pattern = pattern);
    inst._zod.check = (payload) => {
        if (payload.value.endsWith(def.suffix))
            return;
        payload.issues.push({
            origin: "string",
            code: "invalid_format",
            format: "ends_with",
            suffix: def.suffix,
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodCheckOverwrite = /*@__PURE__*/ $constructor("$ZodCheckOverwrite", (inst, def) => {
    $ZodCheck.init(inst, def);
    inst._zod.check = (payload) => {
        payload.value = def.tx(payload.value);
    };
});

class Doc {
    constructor(args = [], closed = {}) {
        this.content = [];
        this.indent = 0;
        this.args = args;
        this.closed = closed;
    }
    // the compiler catches a child's throw and keeps writing into this doc, so the indent has to unwind with it
    indented(fn) {
        this.indent += 1;
        try {
            fn(this);
        }
        finally {
            this.indent -= 1;
        }
    }
    write(arg) {
        if (typeof arg === "function") {
            arg(this, { execution: "sync" });
            arg(this, { execution: "async" });
            return;
        }
        const content = arg;
        const lines = content.split("\n").filter((x) => x);
        const minIndent = Math.min(...lines.map((x) => x.length - x.trimStart().length));
        const dedented = lines.map((x) => x.slice(minIndent)).map((x) => " ".repeat(this.indent * 2) + x);
        for (const line of dedented) {
            this.content.push(line);
        }
    }
    compile() {
        const F = Function;
        const content = this?.content ?? [``];
        const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {\n${content.join("\n")}\n};`);
        return factory(...Object.values(this.closed));
    }
}

const version = {
    major: 4,
    minor: 6,
    patch: 7,
};

const $ZodType = /*@__PURE__*/ $constructor("$ZodType", (inst, def) => {
    var _a;
    inst ?? (inst = {});
    inst._zod.def = def; // set _def property
    inst._zod.bag = inst._zod.bag || {}; // initialize _bag object
    inst._zod.version = version;
    const defChecks = inst._zod.def.checks;
    // if inst is itself a checks.$ZodCheck, run it as a check
    const checks = inst._zod.traits.has("$ZodCheck")
        ? [inst, ...(defChecks ?? [])]
        : defChecks?.length
            ? [...defChecks]
            : [];
    for (const ch of checks) {
        for (const fn of ch._zod.onattach) {
            fn(inst);
        }
    }
    if (checks.length === 0) {
        // deferred initializer inst._zod.parse is not yet defined
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred?.push(() => {
            inst._zod.run = inst._zod.parse;
        });
    }
    else {
        const runChecks = (payload, checks, ctx) => {
            if (payload.memo)
                return payload;
            let isAborted = aborted(payload);
            let asyncResult;
            for (const ch of checks) {
                if (ch._zod.def.when) {
                    if (explicitlyAborted(payload))
                        continue;
                    const shouldRun = ch._zod.def.when(payload);
                    if (!shouldRun)
                        continue;
                }
                else if (isAborted) {
                    continue;
                }
                const currLen = payload.issues.length;
                const _ = ch._zod.check(payload);
                if (_ instanceof Promise && ctx?.async === false) {
                    throw new $ZodAsyncError();
                }
                if (asyncResult || _ instanceof Promise) {
                    asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
                        await _;
                        const nextLen = payload.issues.length;
                        if (nextLen === currLen)
                            return;
                        attachSchema(payload.issues, currLen, inst);
                        if (!isAborted)
                            isAborted = aborted(payload, currLen);
                    });
                }
                else {
                    const nextLen = payload.issues.length;
                    if (nextLen === currLen)
                        continue;
                    attachSchema(payload.issues, currLen, inst);
                    if (!isAborted)
                        isAborted = aborted(payload, currLen);
                }
            }
            if (asyncResult) {
                return asyncResult.then(() => {
                    return payload;
                });
            }
            return payload;
        };
        const handleCanaryResult = (canary, payload, ctx) => {
            // abort if the canary is aborted
            if (aborted(canary)) {
                canary.aborted = true;
                return canary;
            }
            // run checks first, then
            const checkResult = runChecks(payload, checks, ctx);
            if (checkResult instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return checkResult.then((checkResult) => inst._zod.parse(checkResult, ctx));
            }
            return inst._zod.parse(checkResult, ctx);
        };
        inst._zod.run = (payload, ctx) => {
            if (ctx.skipChecks) {
                return inst._zod.parse(payload, ctx);
            }
            if (ctx.direction === "backward") {
                // run canary initial pass (no checks)
                const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
                if (canary instanceof Promise) {
                    return canary.then((canary) => {
                        return handleCanaryResult(canary, payload, ctx);
                    });
                }
                return handleCanaryResult(canary, payload, ctx);
            }
            // forward
            const result = inst._zod.parse(payload, ctx);
            if (result instanceof Promise) {
                if (ctx.async === false)
                    throw new $ZodAsyncError();
                return result.then((result) => runChecks(result, checks, ctx));
            }
            return runChecks(result, checks, ctx);
        };
    }
}, {
    // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
    get "~standard"() {
        return hide(this, "~standard", standardProps(this));
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
});
/** The Standard Schema surface for `inst`. Shared so wrappers can extend it without forcing it. */
// a Standard Schema result only reports issues, so a failure finalizes them straight off the raw payload: no ZodError, and no lazy result to read through
const toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync(inst, value) {
    const ctx = { async: true };
    return toStandardResult((await inst._zod.run({ value, issues: [] }, ctx)), ctx);
}
function standardProps(inst) {
    return {
        validate: (value) => {
            const ctx = { async: false };
            try {
                const r = inst._zod.run({ value, issues: [] }, ctx);
                if (!(r instanceof Promise))
                    return toStandardResult(r, ctx);
            }
            catch (_) { }
            // async function so a synchronously throwing check rejects instead of escaping validate
            return validateAsync(inst, value);
        },
        vendor: "zod",
        version: 1,
    };
}
const $ZodString = /*@__PURE__*/ $constructor("$ZodString", (inst, def) => {
    $ZodType.init(inst, def);
    // a format's own pattern, else unbounded; a template literal derives the check-aware form itself
    inst._zod.pattern = def.pattern ?? anyString;
    inst._zod.parse = (payload, _) => {
        if (def.coerce)
            try {
                payload.value = String(payload.value);
            }
            catch (_) { }
        if (typeof payload.value === "string")
            return payload;
        payload.issues.push({
            expected: "string",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
const $ZodStringFormat = /*@__PURE__*/ $constructor("$ZodStringFormat", (inst, def) => {
    // check initialization must come first
    $ZodCheckStringFormat.init(inst, def);
    $ZodString.init(inst, def);
});
const $ZodGUID = /*@__PURE__*/ $constructor("$ZodGUID", (inst, def) => {
    def.pattern ?? (def.pattern = guid);
    $ZodStringFormat.init(inst, def);
});
const $ZodUUID = /*@__PURE__*/ $constructor("$ZodUUID", (inst, def) => {
    if (def.version) {
        const versionMap = {
            v1: 1,
            v2: 2,
            v3: 3,
            v4: 4,
            v5: 5,
            v6: 6,
            v7: 7,
            v8: 8,
        };
        const v = versionMap[def.version];
        if (v === undefined)
            throw new Error(`Invalid UUID version: "${def.version}"`);
        def.pattern ?? (def.pattern = uuid(v));
    }
    else
        def.pattern ?? (def.pattern = uuid());
    $ZodStringFormat.init(inst, def);
});
const $ZodEmail = /*@__PURE__*/ $constructor("$ZodEmail", (inst, def) => {
    def.pattern ?? (def.pattern = email);
    $ZodStringFormat.init(inst, def);
});
/** The `://` guard rejected the input before the URL constructor saw it. */
const URL_BAD_FORMAT = 1;
/** The URL parser rejected the input. */
const URL_UNPARSEABLE = 2;
function canParseURL(input) {
    try {
        if (typeof URL !== "undefined" && typeof URL.canParse === "function")
            return URL.canParse(input);
        new URL(input);
        return true;
    }
    catch {
        return false;
    }
}
function validateURL(trimmed, def) {
    if (!("normalize" in def) && !("hostname" in def) && !("protocol" in def)) {
        return canParseURL(trimmed) || URL_UNPARSEABLE;
    }
    return parseURLObject(trimmed, def);
}
/** Parses a URL while preserving the non-normalizing HTTP guard. */
function parseURLObject(trimmed, def) {
    // When normalize is off, require :// for http/https URLs. This prevents strings like "http:example.com" or "https:/path" from being silently accepted
    if (!def.normalize && def.protocol?.source === httpProtocol.source && !/^https?:\/\//i.test(trimmed)) {
        return URL_BAD_FORMAT;
    }
    try {
        if (typeof URL !== "undefined") {
            const URLStatic = URL;
            if (typeof URLStatic.parse === "function")
                return URLStatic.parse(trimmed) ?? URL_UNPARSEABLE;
        }
        // @ts-ignore
        return new URL(trimmed);
    }
    catch {
        return URL_UNPARSEABLE;
    }
}
const asciiTabOrNewline = /[\t\n\r]/g;
/** The URL parser deletes every ASCII tab, LF and CR from its input before it parses, so `new URL("https://exa\nmple.com")` reports on `example.com`. Applying the same deletion to the returned value closes the half of that divergence which can move the host; the parser's other rewrite, stripping C0 controls at the edges, cannot. */
function stripTabAndNewline(value) {
    return value.replace(asciiTabOrNewline, "");
}
function urlHostnameOk(url, hostname) {
    hostname.lastIndex = 0;
    return hostname.test(url.hostname);
}
function urlProtocolOk(url, protocol) {
    protocol.lastIndex = 0;
    return protocol.test(url.protocol.endsWith(":") ? url.protocol.slice(0, -1) : url.protocol);
}
const $ZodURL = /*@__PURE__*/ $constructor("$ZodURL", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        try {
            // Trim whitespace from input
            const trimmed = payload.value.trim();
            const url = validateURL(trimmed, def);
            if (url === URL_BAD_FORMAT) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid URL format",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === URL_UNPARSEABLE) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
                return;
            }
            if (url === true) {
                payload.value = stripTabAndNewline(trimmed);
                return;
            }
            if (def.hostname && !urlHostnameOk(url, def.hostname)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid hostname",
                    pattern: def.hostname.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            if (def.protocol && !urlProtocolOk(url, def.protocol)) {
                payload.issues.push({
                    code: "invalid_format",
                    format: "url",
                    note: "Invalid protocol",
                    pattern: def.protocol.source,
                    input: payload.value,
                    inst,
                    continue: !def.abort,
                });
            }
            // Set the output value based on normalize flag
            payload.value = def.normalize ? url.href : stripTabAndNewline(trimmed);
            return;
        }
        catch (_) {
            payload.issues.push({
                code: "invalid_format",
                format: "url",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodEmoji = /*@__PURE__*/ $constructor("$ZodEmoji", (inst, def) => {
    def.pattern ?? (def.pattern = emoji());
    $ZodStringFormat.init(inst, def);
});
const $ZodNanoID = /*@__PURE__*/ $constructor("$ZodNanoID", (inst, def) => {
    if (def.length !== undefined && (!Number.isInteger(def.length) || def.length < 1))
        throw new Error(`Invalid nanoid length: ${def.length}`);
    def.pattern ?? (def.pattern = def.length === undefined ? nanoid : nanoidOfLength(def.length));
    $ZodStringFormat.init(inst, def);
});
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link $ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const $ZodCUID = /*@__PURE__*/ $constructor("$ZodCUID", (inst, def) => {
    def.pattern ?? (def.pattern = cuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodCUID2 = /*@__PURE__*/ $constructor("$ZodCUID2", (inst, def) => {
    def.pattern ?? (def.pattern = cuid2);
    $ZodStringFormat.init(inst, def);
});
const $ZodULID = /*@__PURE__*/ $constructor("$ZodULID", (inst, def) => {
    def.pattern ?? (def.pattern = ulid);
    $ZodStringFormat.init(inst, def);
});
const $ZodXID = /*@__PURE__*/ $constructor("$ZodXID", (inst, def) => {
    def.pattern ?? (def.pattern = xid);
    $ZodStringFormat.init(inst, def);
});
const $ZodKSUID = /*@__PURE__*/ $constructor("$ZodKSUID", (inst, def) => {
    def.pattern ?? (def.pattern = ksuid);
    $ZodStringFormat.init(inst, def);
});
const $ZodISODateTime = /*@__PURE__*/ $constructor("$ZodISODateTime", (inst, def) => {
    def.pattern ?? (def.pattern = datetime(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODate = /*@__PURE__*/ $constructor("$ZodISODate", (inst, def) => {
    def.pattern ?? (def.pattern = date);
    $ZodStringFormat.init(inst, def);
});
const $ZodISOTime = /*@__PURE__*/ $constructor("$ZodISOTime", (inst, def) => {
    def.pattern ?? (def.pattern = time(def));
    $ZodStringFormat.init(inst, def);
});
const $ZodISODuration = /*@__PURE__*/ $constructor("$ZodISODuration", (inst, def) => {
    def.pattern ?? (def.pattern = duration$1);
    $ZodStringFormat.init(inst, def);
});
const $ZodIPv4 = /*@__PURE__*/ $constructor("$ZodIPv4", (inst, def) => {
    def.pattern ?? (def.pattern = ipv4);
    $ZodStringFormat.init(inst, def);
});
/** An IPv6 address is written with hex digits, colons and dots, and nothing else. The guard is what makes the check below an IPv6 check: `new URL("http://[...]")` parses an authority, not an address, so `@` and `\` re-delimit it and `"::@1\\"` validates against the host `0.0.0.1`. The URL parser also deletes ASCII tab, LF and CR rather than failing, which is how `"::1\n"` validated as `::1`. */
const ipv6Alphabet = /^[0-9a-fA-F:.]+$/;
function isValidIPv6(value) {
    if (!ipv6Alphabet.test(value))
        return false;
    return canParseURL(`http://[${value}]`);
}
const $ZodIPv6 = /*@__PURE__*/ $constructor("$ZodIPv6", (inst, def) => {
    def.pattern ?? (def.pattern = ipv6);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidIPv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "ipv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
const $ZodCIDRv4 = /*@__PURE__*/ $constructor("$ZodCIDRv4", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv4);
    $ZodStringFormat.init(inst, def);
});
function isValidCIDRv6(value) {
    const parts = value.split("/");
    if (parts.length !== 2)
        return false;
    const [address, prefix] = parts;
    if (!prefix)
        return false;
    const prefixNum = Number(prefix);
    if (`${prefixNum}` !== prefix)
        return false;
    if (prefixNum < 0 || prefixNum > 128)
        return false;
    return isValidIPv6(address);
}
const $ZodCIDRv6 = /*@__PURE__*/ $constructor("$ZodCIDRv6", (inst, def) => {
    def.pattern ?? (def.pattern = cidrv6); // not used for validation
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (!isValidCIDRv6(payload.value)) {
            payload.issues.push({
                code: "invalid_format",
                format: "cidrv6",
                input: payload.value,
                inst,
                continue: !def.abort,
            });
        }
    };
});
//////////////////////////////   ZodBase64   //////////////////////////////
function isValidBase64(data) {
    if (data === "")
        return true;
    // atob ignores whitespace, so reject it up front.
    if (/\s/.test(data))
        return false;
    if (data.length % 4 !== 0)
        return false;
    try {
        // @ts-ignore
        atob(data);
        return true;
    }
    catch {
        return false;
    }
}
// lax on purpose: the quantified regexes.base64 overflows the regex stack on multi-MB input and its leading ^$| alternation leaks through template-literal composition; isValidBase64 enforces length and padding
const base64Charset = /^[0-9a-zA-Z+/]*={0,2}$/;
const $ZodBase64 = /*@__PURE__*/ $constructor("$ZodBase64", (inst, def) => {
    def.pattern ?? (def.pattern = base64Charset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
//////////////////////////////   ZodBase64URL   //////////////////////////////
// lax on purpose: the quantified regexes.base64url overflows the regex stack on multi-MB input; isValidBase64 enforces length on the padded string
const base64urlCharset = /^[A-Za-z0-9_-]*$/;
function isValidBase64URL(data) {
    if (!base64urlCharset.test(data))
        return false;
    const base64 = data.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/"));
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, "=");
    return isValidBase64(padded);
}
const $ZodBase64URL = /*@__PURE__*/ $constructor("$ZodBase64URL", (inst, def) => {
    def.pattern ?? (def.pattern = base64urlCharset);
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidBase64URL(payload.value))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "base64url",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodE164 = /*@__PURE__*/ $constructor("$ZodE164", (inst, def) => {
    def.pattern ?? (def.pattern = e164);
    $ZodStringFormat.init(inst, def);
});
//////////////////////////////   ZodJWT   //////////////////////////////
function isValidJWT(token, algorithm = null) {
    try {
        const tokensParts = token.split(".");
        if (tokensParts.length !== 3)
            return false;
        const [header] = tokensParts;
        if (!header)
            return false;
        // @ts-ignore
        const parsedHeader = JSON.parse(atob(header));
        if ("typ" in parsedHeader && parsedHeader?.typ !== "JWT")
            return false;
        if (!parsedHeader.alg)
            return false;
        if (algorithm && (!("alg" in parsedHeader) || parsedHeader.alg !== algorithm))
            return false;
        return true;
    }
    catch {
        return false;
    }
}
const $ZodJWT = /*@__PURE__*/ $constructor("$ZodJWT", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    inst._zod.check = (payload) => {
        if (isValidJWT(payload.value, def.alg))
            return;
        payload.issues.push({
            code: "invalid_format",
            format: "jwt",
            input: payload.value,
            inst,
            continue: !def.abort,
        });
    };
});
const $ZodNumber = /*@__PURE__*/ $constructor("$ZodNumber", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = number$1;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Number(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
            return payload;
        }
        const received = typeof input === "number"
            ? Number.isNaN(input)
                ? "NaN"
                : !Number.isFinite(input)
                    ? String(input)
                    : undefined
            : undefined;
        payload.issues.push({
            expected: "number",
            code: "invalid_type",
            input,
            inst,
            ...(received ? { received } : {}),
        });
        return payload;
    };
});
const $ZodNumberFormat = /*@__PURE__*/ $constructor("$ZodNumberFormat", (inst, def) => {
    $ZodCheckNumberFormat.init(inst, def);
    $ZodNumber.init(inst, def); // no format checks
});
const $ZodBoolean = /*@__PURE__*/ $constructor("$ZodBoolean", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.pattern = boolean$1;
    inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
            try {
                payload.value = Boolean(payload.value);
            }
            catch (_) { }
        const input = payload.value;
        if (typeof input === "boolean")
            return payload;
        payload.issues.push({
            expected: "boolean",
            code: "invalid_type",
            input,
            inst,
        });
        return payload;
    };
});
const $ZodUnknown = /*@__PURE__*/ $constructor("$ZodUnknown", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload) => payload;
});
const $ZodNever = /*@__PURE__*/ $constructor("$ZodNever", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _ctx) => {
        payload.issues.push({
            expected: "never",
            code: "invalid_type",
            input: payload.value,
            inst,
        });
        return payload;
    };
});
// an oversized container fails its leading size checks before any element is parsed
function capSize(inst, size) {
    const caps = sizeCaps(inst._zod.def.checks);
    if (!caps.length)
        return;
    const cap = Math.min(...caps.map((c) => c[0]));
    const parse = inst._zod.parse;
    inst._zod.parse = (payload, ctx) => {
        const n = size(payload.value);
        if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
            for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
                if (n > max && ch._zod.def.when(payload)) {
                    const start = payload.issues.length;
                    ch._zod.check(payload);
                    // the value is still the raw input, so no later check may read it
                    payload.issues[start].continue = false;
                    attachSchema(payload.issues, start, inst);
                    return payload;
                }
            }
        }
        return parse(payload, ctx);
    };
}
const arraySize = (input) => (Array.isArray(input) ? input.length : -1);
function handleArrayResult(result, final, index) {
    if (result.issues.length) {
        final.issues.push(...prefixIssues(index, result.issues));
    }
    final.value[index] = result.value;
}
const $ZodArray = /*@__PURE__*/ $constructor("$ZodArray", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
            payload.issues.push({
                expected: "array",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
        const proms = [];
        const abortEarly = ctx?.abortEarly;
        for (let i = 0; i < input.length; i++) {
            const item = input[i];
            const result = def.element._zod.run({
                value: item,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                proms.push(result.then((result) => handleArrayResult(result, payload, i)));
            }
            else {
                handleArrayResult(result, payload, i);
                // the element's payload is authoritative here, since handleArrayResult forwards every issue; an object's is not, because it drops a failed absent optional
                if (abortEarly && result.issues.length !== 0 && aborted(result))
                    break;
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload; //handleArrayResultsAsync(parseResults, final);
    };
    capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input, optin, optout) {
    const isPresent = key in input;
    const isOptionalOut = optout === "optional";
    // The middle rung means "absence permitted, nothing supplied in its place", so an absent key contributes nothing — whatever the schema made of `undefined` is invented, not substituted. Only `optional` reaches this with a value: `defaulted` substitutes, and a schema that isn't optional-out has to keep the key.
    if (!isPresent && isOptionalOut && optin === "optional") {
        return;
    }
    if (result.issues.length) {
        // For optional-in/out schemas, ignore errors on absent keys.
        if (optin !== undefined && isOptionalOut && !isPresent) {
            return;
        }
        final.issues.push(...prefixIssues(key, result.issues));
    }
    if (!isPresent && optin === undefined) {
        if (!result.issues.length) {
            final.issues.push({
                code: "invalid_type",
                expected: "nonoptional",
                input: undefined,
                path: [key],
            });
        }
        return;
    }
    if (result.value === undefined) {
        if (isPresent || (optin === "defaulted" && !isOptionalOut)) {
            final.value[key] = undefined;
        }
    }
    else {
        final.value[key] = result.value;
    }
}
// one shared instance; a fresh [] per schema cost 56 bytes retained
const NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
    const keys = Object.keys(def.shape);
    const ownSymbols = Object.getOwnPropertySymbols(def.shape);
    const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
    // aliases `keys` when there are no symbols, so a string-only shape keeps one array
    const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
    for (const k of allKeys) {
        if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
            throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
        }
    }
    const okeys = optionalKeys(def.shape);
    return {
        ...def,
        allKeys,
        symbolKeys,
        // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
        keySet: new Set(keys),
        numKeys: keys.length,
        optionalKeys: new Set(okeys),
    };
}
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
    const unrecognized = [];
    const keySet = def.keySet;
    const _catchall = def.catchall._zod;
    const t = _catchall.def.type;
    const optin = _catchall.optin;
    const optout = _catchall.optout;
    // starts at 0, not the current length: the shape phase already ran and may have aborted
    let seen = 0;
    for (const key in input) {
        if (abortEarly && payload.issues.length !== seen) {
            if (aborted(payload, seen))
                break;
            seen = payload.issues.length;
        }
        // Must precede the __proto__ branch: a declared key is not unrecognized, even though the shape loop deliberately strips __proto__ from the parsed output.
        if (keySet.has(key))
            continue;
        // Don't copy an undeclared __proto__ into the result; assignment to a plain {} would replace the result prototype. But in strict mode it is still an unknown key, so report it before skipping.
        if (key === "__proto__") {
            if (t === "never")
                unrecognized.push(key);
            continue;
        }
        if (t === "never") {
            unrecognized.push(key);
            continue;
        }
        const r = _catchall.run({ value: input[key], issues: [] }, ctx);
        if (r instanceof Promise) {
            proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
        }
        else {
            handlePropertyResult(r, payload, key, input, optin, optout);
        }
    }
    if (unrecognized.length) {
        payload.issues.push({
            code: "unrecognized_keys",
            keys: unrecognized,
            input,
            inst,
            // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
            continue: true,
        });
    }
    if (!proms.length)
        return payload;
    return Promise.all(proms).then(() => {
        return payload;
    });
}
const $ZodObject = /*@__PURE__*/ $constructor("$ZodObject", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodType.init(inst, def);
    const desc = Object.getOwnPropertyDescriptor(def, "shape");
    // a cloned def carries its source's accessor, which knows the shape it answers from; adopting that keeps the clone's keys readable without running it
    const sh = desc?.get ? desc.get.raw : (def.shape ?? {});
    if (sh) {
        // Freezes the shape on first read, so its getters resolve once and every later read sees the same schemas.
        const get = () => {
            const newSh = { ...sh };
            Object.defineProperty(def, "shape", { value: newSh });
            get.raw = newSh;
            return newSh;
        };
        get.raw = sh;
        Object.defineProperty(def, "shape", { get });
    }
    const _normalized = cached(() => normalizeDef(def));
    defineLazyInternal(inst, "propValues", (zod) => {
        const shape = zod.def.shape;
        const propValues = {};
        for (const key in shape) {
            const field = shape[key]._zod;
            if (field.values) {
                if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
                    assignProp(propValues, key, new Set());
                }
                for (const v of field.values)
                    propValues[key].add(v);
                // An omittable slot reads back as undefined at a discriminator lookup, so it has to claim undefined: two options that can both omit the key are not discriminable on it.
                if (field.optin !== undefined)
                    propValues[key].add(undefined);
            }
        }
        return propValues;
    });
    const isObject = isObject$2;
    const catchall = def.catchall;
    let value;
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
        const proms = [];
        const shape = value.shape;
        const abortEarly = ctx?.abortEarly;
        let seen = payload.issues.length;
        for (const key of value.allKeys) {
            if (abortEarly && payload.issues.length !== seen) {
                if (aborted(payload, seen))
                    break;
                seen = payload.issues.length;
            }
            if (key === "__proto__")
                continue;
            const el = shape[key];
            const optin = el._zod.optin;
            const optout = el._zod.optout;
            const r = el._zod.run({ value: input[key], issues: [] }, ctx);
            if (r instanceof Promise) {
                proms.push(r.then((r) => handlePropertyResult(r, payload, key, input, optin, optout)));
            }
            else {
                handlePropertyResult(r, payload, key, input, optin, optout);
            }
        }
        if (!catchall) {
            return proms.length ? Promise.all(proms).then(() => payload) : payload;
        }
        return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
    };
});
const $ZodObjectJIT = /*@__PURE__*/ $constructor("$ZodObjectJIT", (inst, def) => {
    // requires cast because technically $ZodObject doesn't extend
    $ZodObject.init(inst, def);
    const superParse = inst._zod.parse;
    const _normalized = cached(() => normalizeDef(def));
    const memo = globalConfig.memoizer;
    const generateFastpass = (shape) => {
        const normalized = _normalized.value;
        const syms = normalized.symbolKeys;
        // a symbol has no source literal, so it is read as `syms[i]` off the closed-over scope
        const doc = new Doc(["payload", "ctx"], { shape, inst, memo, syms });
        const parseStr = (k) => `shape[${k}]._zod.run({ value: input[${k}], issues: [] }, ctx)`;
        // prefixes in place, like util.prefixIssues. newResult must land before the early return: a catchall runs after this and would otherwise write onto the caller's input
        const prefixStr = (id, k) => `
          let ${id}_ab = false;
          for (let i = 0; i < ${id}.issues.length; i++) {
            const iss = ${id}.issues[i];
            iss.path = iss.path ? [${k}, ...iss.path] : [${k}];
            payload.issues.push(iss);
            if (iss.continue !== true) ${id}_ab = true;
          }
          if (${id}_ab && ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }`;
        doc.write(`const input = payload.value;`);
        const ids = Object.create(null);
        let counter = 0;
        for (const key of normalized.allKeys) {
            ids[key] = `key_${counter++}`;
        }
        // A: preserve key order {
        doc.write(memo ? `const newResult = memo.alloc(inst, payload, {}, ctx);` : `const newResult = {};`);
        for (const key of normalized.allKeys) {
            if (key === "__proto__")
                continue;
            const id = ids[key];
            const k = typeof key === "symbol" ? `syms[${syms.indexOf(key)}]` : esc(key);
            const isPresent = `${k} in input`;
            const schema = shape[key];
            const optin = schema?._zod?.optin;
            const isOptionalIn = optin !== undefined;
            const isOptionalOut = schema?._zod?.optout === "optional";
            doc.write(`const ${id} = ${parseStr(k)};`);
            if (isOptionalIn && isOptionalOut) {
                // For optional-in/out schemas, ignore errors on absent keys — and, like the interpreted path, drop the value produced alongside them. The middle rung goes further: it permits absence without supplying anything in its place, so an absent key contributes nothing at all.
                const assign = optin === "optional" ? `${id}_present` : `${id}.value !== undefined || ${id}_present`;
                doc.write(`
        const ${id}_present = ${isPresent};
        if (!${id}.issues.length || ${id}_present) {
          if (${id}.issues.length) {${prefixStr(id, k)}
          }

          if (${assign}) {
            newResult[${k}] = ${id}.value;
          }
        }

      `);
            }
            else if (!isOptionalIn) {
                doc.write(`
        const ${id}_present = ${isPresent};
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
        if (!${id}_present && !${id}.issues.length) {
          payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: undefined,
            path: [${k}]
          });
          if (ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }
        }

        if (${id}_present) {
          newResult[${k}] = ${id}.value;
        }

      `);
            }
            else {
                doc.write(`
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
      `);
                if (optin === "defaulted") {
                    doc.write(`newResult[${k}] = ${id}.value;`);
                }
                else {
                    doc.write(`
        if (${id}.value !== undefined || ${isPresent}) {
          newResult[${k}] = ${id}.value;
        }
      `);
                }
            }
        }
        doc.write(`payload.value = newResult;`);
        doc.write(`return payload;`);
        // closing `shape` in is what pays: turbofan specializes the parser against that one shape object, so every `shape[k]._zod.run` folds to a known callee. as a parameter it stays a generic load and measures 13% slower even with the forwarding frame gone
        return doc.compile();
    };
    let fastpass;
    const isObject = isObject$2;
    const jit = !globalConfig.jitless;
    const allowsEval$1 = allowsEval;
    const fastEnabled = jit && allowsEval$1.value; // && !def.catchall;
    const catchall = def.catchall;
    let value;
    inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject(input)) {
            payload.issues.push({
                expected: "object",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {
            // always synchronous
            if (!fastpass)
                fastpass = generateFastpass(def.shape);
            payload = fastpass(payload, ctx);
            if (!catchall)
                return payload;
            return handleCatchall([], input, payload, ctx, value, inst, ctx?.abortEarly === true);
        }
        return superParse(payload, ctx);
    };
});
function handleUnionResults(results, final, inst, ctx) {
    for (const result of results) {
        if (result.issues.length === 0) {
            final.value = result.value;
            return final;
        }
    }
    const nonaborted = results.filter((r) => !aborted(r));
    if (nonaborted.length === 1) {
        final.value = nonaborted[0].value;
        return nonaborted[0];
    }
    final.issues.push({
        code: "invalid_union",
        input: final.value,
        inst,
        errors: results.map((result) => result.issues.map((iss) => finalizeIssue(iss, ctx, config()))),
    });
    return final;
}
const $ZodUnion = /*@__PURE__*/ $constructor("$ZodUnion", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.options.some((o) => o._zod.optin === "defaulted")
        ? "defaulted"
        : zod.def.options.some((o) => o._zod.optin !== undefined)
            ? "optional"
            : undefined);
    defineLazyInternal(inst, "optout", (zod) => zod.def.options.some((o) => o._zod.optout === "optional") ? "optional" : undefined);
    defineLazyInternal(inst, "values", (zod) => {
        if (zod.def.options.every((o) => o._zod.values)) {
            return new Set(zod.def.options.flatMap((option) => Array.from(option._zod.values)));
        }
        return undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        if (zod.def.options.every((o) => o._zod.pattern)) {
            const patterns = zod.def.options.map((o) => o._zod.pattern);
            return new RegExp(`^(${patterns.map((p) => cleanRegex(p.source)).join("|")})$`);
        }
        return undefined;
    });
    const first = def.options.length === 1 ? def.options[0]._zod.run : null;
    inst._zod.parse = (payload, ctx) => {
        if (first) {
            return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
            const result = option._zod.run({
                value: payload.value,
                issues: [],
            }, ctx);
            if (result instanceof Promise) {
                results.push(result);
                async = true;
            }
            else {
                if (result.issues.length === 0)
                    return result;
                results.push(result);
            }
        }
        if (!async)
            return handleUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results) => {
            return handleUnionResults(results, payload, inst, ctx);
        });
    };
});
const $ZodIntersection = /*@__PURE__*/ $constructor("$ZodIntersection", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        const left = def.left._zod.run({ value: input, issues: [] }, ctx);
        const right = def.right._zod.run({ value: input, issues: [] }, ctx);
        const async = left instanceof Promise || right instanceof Promise;
        if (async) {
            return Promise.all([left, right]).then(([left, right]) => {
                return handleIntersectionResults(payload, left, right);
            });
        }
        return handleIntersectionResults(payload, left, right);
    };
});
function mergeValues(a, b) {
    // const aType = parse.t(a);
    // const bType = parse.t(b);
    if (a === b) {
        return { valid: true, data: a };
    }
    if (a instanceof Date && b instanceof Date && +a === +b) {
        return { valid: true, data: a };
    }
    if (isPlainObject(a) && isPlainObject(b)) {
        const bKeys = Object.keys(b);
        const sharedKeys = Object.keys(a).filter((key) => bKeys.indexOf(key) !== -1);
        const newObj = { ...a, ...b };
        if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
            delete newObj.__proto__;
        for (const key of sharedKeys) {
            if (key === "__proto__")
                continue;
            const sharedValue = mergeValues(a[key], b[key]);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [key, ...sharedValue.mergeErrorPath],
                };
            }
            newObj[key] = sharedValue.data;
        }
        return { valid: true, data: newObj };
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) {
            return { valid: false, mergeErrorPath: [] };
        }
        const newArray = [];
        for (let index = 0; index < a.length; index++) {
            const itemA = a[index];
            const itemB = b[index];
            const sharedValue = mergeValues(itemA, itemB);
            if (!sharedValue.valid) {
                return {
                    valid: false,
                    mergeErrorPath: [index, ...sharedValue.mergeErrorPath],
                };
            }
            newArray.push(sharedValue.data);
        }
        return { valid: true, data: newArray };
    }
    return { valid: false, mergeErrorPath: [] };
}
function handleIntersectionResults(result, left, right) {
    // Track which side(s) reject each key. A key rejection is reported only when BOTH sides reject it, so a key owned by one branch survives the other's key schema. strictObject reports these as unrecognized_keys; a record with an open key schema reports one invalid_key per key.
    const unrecKeys = new Map();
    let unrecIssue;
    const keyIssues = new Map();
    const collect = (iss, side) => {
        let keys;
        if (iss.code === "unrecognized_keys" && !iss.path?.length) {
            unrecIssue ?? (unrecIssue = iss);
            keys = iss.keys;
        }
        else if (iss.code === "invalid_key" && iss.origin === "record" && iss.path?.length === 1) {
            const k = String(iss.path[0]);
            if (!keyIssues.has(k))
                keyIssues.set(k, iss);
            keys = [k];
        }
        else {
            return false;
        }
        for (const k of keys) {
            if (!unrecKeys.has(k))
                unrecKeys.set(k, {});
            unrecKeys.get(k)[side] = true;
        }
        return true;
    };
    for (const iss of left.issues) {
        if (!collect(iss, "l"))
            result.issues.push(iss);
    }
    for (const iss of right.issues) {
        if (!collect(iss, "r"))
            result.issues.push(iss);
    }
    // Report only keys rejected by BOTH sides
    const bothKeys = [...unrecKeys].filter(([, f]) => f.l && f.r).map(([k]) => k);
    if (bothKeys.length) {
        const aggregated = unrecIssue ? bothKeys.filter((k) => unrecIssue.keys.includes(k)) : [];
        if (aggregated.length)
            result.issues.push({ ...unrecIssue, keys: aggregated });
        for (const k of bothKeys) {
            if (!aggregated.includes(k) && keyIssues.has(k))
                result.issues.push(keyIssues.get(k));
        }
    }
    const merged = mergeValues(left.value, right.value);
    if (!merged.valid) {
        if (aborted(result))
            return result;
        throw new Error(`Unmergable intersection. Error path: ` + `${JSON.stringify(merged.mergeErrorPath)}`);
    }
    result.value = merged.data;
    return result;
}
const $ZodRecord = /*@__PURE__*/ $constructor("$ZodRecord", (inst, def) => {
    $ZodType.init(inst, def);
    const memo = globalConfig.memoizer;
    memo?.attach(inst);
    inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!isPlainObject(input)) {
            payload.issues.push({
                expected: "record",
                code: "invalid_type",
                input,
                inst,
            });
            return payload;
        }
        // no guard in either loop below: a record's invalid_key aborts but an enclosing intersection can reconcile it, so a stopped loop hides keys the sibling does not own and the intersection then rejects nothing
        const proms = [];
        const values = def.keyType._zod.values;
        if (values && !def.partial) {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            const recordKeys = new Set();
            for (const key of values) {
                if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
                    recordKeys.add(typeof key === "number" ? key.toString() : key);
                    // A declared __proto__ is stripped but is not an unrecognized key.
                    if (key === "__proto__")
                        continue;
                    const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                    if (keyResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (keyResult.issues.length) {
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                        continue;
                    }
                    const outKey = keyResult.value;
                    if (outKey === "__proto__")
                        continue;
                    const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                    if (result instanceof Promise) {
                        proms.push(result.then((result) => {
                            if (result.issues.length) {
                                payload.issues.push(...prefixIssues(key, result.issues));
                            }
                            payload.value[outKey] = result.value;
                        }));
                    }
                    else {
                        if (result.issues.length) {
                            payload.issues.push(...prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }
                }
            }
            let unrecognized;
            for (const key in input) {
                if (!recordKeys.has(key)) {
                    if (def.mode === "loose") {
                        // skip __proto__ so it can't replace the result prototype via the assignment setter on the plain {} we build into
                        if (key === "__proto__")
                            continue;
                        payload.value[key] = input[key];
                    }
                    else {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        else {
            payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
            // An enumerable key schema declares which keys the record owns, so a key outside the set is unrecognized. A non-enumerable one (regex, refine) is a constraint every key must satisfy, so a failing key is invalid. Only the former is reconcilable against the other side of an intersection.
            let unrecognized;
            // Reflect.ownKeys for Symbol-key support; filter non-enumerable to match z.object()
            for (const key of Reflect.ownKeys(input)) {
                if (key === "__proto__")
                    continue;
                if (!Object.prototype.propertyIsEnumerable.call(input, key))
                    continue;
                let keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
                if (keyResult instanceof Promise) {
                    throw new Error("Async schemas not supported in object keys currently");
                }
                // Numeric string fallback: if key is a numeric string and failed, retry with Number(key). This handles z.number(), z.literal([1, 2, 3]), and unions containing numeric literals
                const checkNumericKey = typeof key === "string" && number$1.test(key) && keyResult.issues.length;
                if (checkNumericKey) {
                    const retryResult = def.keyType._zod.run({ value: Number(key), issues: [] }, ctx);
                    if (retryResult instanceof Promise) {
                        throw new Error("Async schemas not supported in object keys currently");
                    }
                    if (retryResult.issues.length === 0) {
                        keyResult = retryResult;
                    }
                }
                if (keyResult.issues.length) {
                    if (def.mode === "loose") {
                        // Pass through unchanged
                        payload.value[key] = input[key];
                    }
                    else if (values) {
                        unrecognized = unrecognized ?? [];
                        unrecognized.push(key);
                    }
                    else {
                        // Default "strict" behavior: error on invalid key
                        payload.issues.push({
                            code: "invalid_key",
                            origin: "record",
                            issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                            input: key,
                            path: [key],
                            inst,
                        });
                    }
                    continue;
                }
                // the guard above tests the raw input key, but the key schema can normalize an ordinary key into __proto__; re-check the key we actually write under
                const outKey = keyResult.value;
                if (outKey === "__proto__")
                    continue;
                const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
                if (result instanceof Promise) {
                    proms.push(result.then((result) => {
                        if (result.issues.length) {
                            payload.issues.push(...prefixIssues(key, result.issues));
                        }
                        payload.value[outKey] = result.value;
                    }));
                }
                else {
                    if (result.issues.length) {
                        payload.issues.push(...prefixIssues(key, result.issues));
                    }
                    payload.value[outKey] = result.value;
                }
            }
            if (unrecognized && unrecognized.length > 0) {
                payload.issues.push({
                    code: "unrecognized_keys",
                    input,
                    inst,
                    keys: unrecognized,
                    continue: true,
                });
            }
        }
        if (proms.length) {
            return Promise.all(proms).then(() => payload);
        }
        return payload;
    };
});
const $ZodEnum = /*@__PURE__*/ $constructor("$ZodEnum", (inst, def) => {
    $ZodType.init(inst, def);
    const values = getEnumValues(def.entries);
    const valuesSet = new Set(values);
    inst._zod.values = valuesSet;
    defineLazyInternal(inst, "pattern", (zod) => {
        const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
        // unmatchable fallback, RE2-safe: an empty alternation would compile to /^()$/, which matches ""
        return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
    });
    inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (valuesSet.has(input)) {
            return payload;
        }
        payload.issues.push({
            code: "invalid_value",
            values,
            input,
            inst,
        });
        return payload;
    };
});
const $ZodTransform = /*@__PURE__*/ $constructor("$ZodTransform", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "optional";
    globalConfig.memoizer?.guard(inst);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        const _out = def.transform(payload.value, payload);
        if (ctx.async) {
            const output = _out instanceof Promise ? _out : Promise.resolve(_out);
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        if (_out instanceof Promise) {
            throw new $ZodAsyncError();
        }
        payload.value = _out;
        return payload;
    };
});
function handleOptionalResult(payload, result) {
    // A substituting schema that still failed has no usable answer; yield undefined. Its issues are simply dropped: it ran on a payload of its own, so there is no shared array to truncate and nothing of the caller's to lose with it.
    payload.value = result.issues.length ? undefined : result.value;
    return payload;
}
const $ZodOptional = /*@__PURE__*/ $constructor("$ZodOptional", (inst, def) => {
    $ZodType.init(inst, def);
    // .optional() propagates absence rather than substituting for it, so a defaulted inner keeps its rung.
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    inst._zod.optout = "optional";
    defineLazyInternal(inst, "values", (zod) => {
        const values = zod.def.innerType._zod.values;
        return values ? new Set([...values, undefined]) : undefined;
    });
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        if (payload.value === undefined) {
            // Only the top rung substitutes a value for absence; everything else leaves it intact, which is what .optional() means.
            if (def.innerType._zod.optin !== "defaulted")
                return payload;
            // Its own payload, for the same reason $ZodCatch gets one: a pipe forwards an unrecognized key through the caller's issues array, and this must not read that as the substituting schema failing and drop it.
            const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
            if (result instanceof Promise)
                return result.then((result) => handleOptionalResult(payload, result));
            return handleOptionalResult(payload, result);
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodExactOptional = /*@__PURE__*/ $constructor("$ZodExactOptional", (inst, def) => {
    // Call parent init - inherits optin/optout = "optional"
    $ZodOptional.init(inst, def);
    // Override values/pattern to NOT add undefined
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "pattern", (zod) => zod.def.innerType._zod.pattern);
    // Override parse to just delegate (no undefined handling)
    inst._zod.parse = (payload, ctx) => {
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNullable = /*@__PURE__*/ $constructor("$ZodNullable", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "pattern", (zod) => {
        const pattern = zod.def.innerType._zod.pattern;
        return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : undefined;
    });
    defineLazyInternal(inst, "values", (zod) => {
        return zod.def.innerType._zod.values ? new Set([...zod.def.innerType._zod.values, null]) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        // Forward direction (decode): allow null to pass through
        if (payload.value === null)
            return payload;
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodDefault = /*@__PURE__*/ $constructor("$ZodDefault", (inst, def) => {
    $ZodType.init(inst, def);
    // inst._zod.qin = "true";
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply defaults for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
            /**
             * $ZodDefault returns the default value immediately in forward direction.
             * It doesn't pass the default value into the validator ("prefault"). There's no reason to pass the default value through validation. The validity of the default is enforced by TypeScript statically. Otherwise, it's the responsibility of the user to ensure the default is valid. In the case of pipes with divergent in/out types, you can specify the default on the `in` schema of your ZodPipe to set a "prefault" for the pipe.   */
            return payload;
        }
        // Forward direction: continue with default handling
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleDefaultResult(result, def));
        }
        return handleDefaultResult(result, def);
    };
});
function handleDefaultResult(payload, def) {
    if (payload.value === undefined) {
        payload.value = def.defaultValue;
    }
    return payload;
}
const $ZodPrefault = /*@__PURE__*/ $constructor("$ZodPrefault", (inst, def) => {
    $ZodType.init(inst, def);
    inst._zod.optin = "defaulted";
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply prefault for undefined input
        if (payload.value === undefined) {
            payload.value = def.defaultValue;
        }
        return def.innerType._zod.run(payload, ctx);
    };
});
const $ZodNonOptional = /*@__PURE__*/ $constructor("$ZodNonOptional", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => {
        const v = zod.def.innerType._zod.values;
        return v ? new Set([...v].filter((x) => x !== undefined)) : undefined;
    });
    inst._zod.parse = (payload, ctx) => {
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleNonOptionalResult(result, inst));
        }
        return handleNonOptionalResult(result, inst);
    };
});
function handleNonOptionalResult(payload, inst) {
    if (!payload.issues.length && payload.value === undefined) {
        payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: payload.value,
            inst,
        });
    }
    return payload;
}
function handleCatchResult(payload, result, def, ctx) {
    if (!result.issues.length) {
        payload.value = result.value;
        // The value carries up, so the flag describing it has to carry with it: a back-edge into a node still being parsed must not be frozen by an enclosing readonly, and its checks belong to the node itself. Guarded so the ordinary case adds no own property.
        if (result.memo)
            payload.memo = true;
        return payload;
    }
    // Spread the inner's own payload, not ours: `value` has to stay the input the catch was handed, and the inner ran on a payload of its own so its issues are already private to this call.
    payload.value = def.catchValue({
        ...result,
        value: payload.value,
        error: {
            issues: result.issues.map((iss) => finalizeIssue(iss, ctx, config())),
        },
        input: payload.value,
    });
    return payload;
}
const $ZodCatch = /*@__PURE__*/ $constructor("$ZodCatch", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        // Forward direction (decode): apply catch logic
        const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
        if (result instanceof Promise) {
            return result.then((result) => handleCatchResult(payload, result, def, ctx));
        }
        return handleCatchResult(payload, result, def, ctx);
    };
});
const $ZodPipe = /*@__PURE__*/ $constructor("$ZodPipe", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            const right = def.out._zod.run(payload, ctx);
            if (right instanceof Promise) {
                return right.then((right) => handlePipeResult(right, def.in, ctx));
            }
            return handlePipeResult(right, def.in, ctx);
        }
        const left = def.in._zod.run(payload, ctx);
        if (left instanceof Promise) {
            return left.then((left) => handlePipeResult(left, def.out, ctx));
        }
        return handlePipeResult(left, def.out, ctx);
    };
});
function handlePipeResult(left, next, ctx) {
    // Any issue stops the pipe, so a failing refinement never feeds its transform. An unrecognized key is the exception: it describes the input's extra properties, not the value being piped, and an enclosing intersection may yet reconcile it.
    if (left.issues.some((iss) => iss.code !== "unrecognized_keys")) {
        // prevent further checks
        left.aborted = true;
        return left;
    }
    return next._zod.run({ value: left.value, issues: left.issues }, ctx);
}
const $ZodReadonly = /*@__PURE__*/ $constructor("$ZodReadonly", (inst, def) => {
    $ZodType.init(inst, def);
    defineLazyInternal(inst, "propValues", (zod) => zod.def.innerType._zod.propValues);
    defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
    defineLazyInternal(inst, "optin", (zod) => zod.def.innerType?._zod?.optin);
    defineLazyInternal(inst, "optout", (zod) => zod.def.innerType?._zod?.optout);
    inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
            return def.innerType._zod.run(payload, ctx);
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
            return result.then(handleReadonlyResult);
        }
        return handleReadonlyResult(result);
    };
});
function handleReadonlyResult(payload) {
    // A repeat visit hands back a node that is still being built; freezing it here would make the rest of its keys fail to assign.
    if (!payload.memo)
        payload.value = Object.freeze(payload.value);
    return payload;
}
const $ZodCustom = /*@__PURE__*/ $constructor("$ZodCustom", (inst, def) => {
    $ZodCheck.init(inst, def);
    $ZodType.init(inst, def);
    inst._zod.parse = (payload, _) => {
        return payload;
    };
    inst._zod.check = (payload) => {
        const input = payload.value;
        const r = def.fn(input);
        if (r instanceof Promise) {
            return r.then((r) => handleRefineResult(r, payload, input, inst));
        }
        handleRefineResult(r, payload, input, inst);
        return;
    };
});
function handleRefineResult(result, payload, input, inst) {
    if (!result) {
        const _iss = {
            code: "custom",
            input,
            inst, // incorporates params.error into issue reporting
            path: [...(inst._zod.def.path ?? [])], // incorporates params.error into issue reporting
            continue: !inst._zod.def.abort,
            // params: inst._zod.def.params,
        };
        if (inst._zod.def.params)
            _iss.params = inst._zod.def.params;
        payload.issues.push(issue(_iss));
    }
}

class $ZodCyclicError extends Error {
    constructor() {
        super(`Cannot parse a reference cycle that closes through a transform`);
        this.name = "ZodCyclicError";
    }
}
/** Keyed off the context object every schema in one parse call already shares. */
const STATE = "~memo";
const NO_ISSUES = [];
// a value a cycle can close through
function isRef(value) {
    return value !== null && typeof value === "object";
}
// Receivers prefix paths in place, so the cache and every hand-out need their own copies.
function cloneIssues(issues) {
    return issues.map((iss) => (iss.path ? { ...iss, path: iss.path.slice() } : { ...iss }));
}
const recursive = /*@__PURE__*/ new WeakMap();
/** What the walk established, in order of certainty: ordered so the strongest answer among children wins. */
const NONE = 0;
const ASSUMED = 1;
const PROVEN = 2;
/** Whether this schema's subtree contains a cycle, so one parse can re-enter it. */
function isRecursive(inst, stack, resolve) {
    const cached = recursive.get(inst);
    if (cached !== undefined)
        return cached ? PROVEN : NONE;
    // Relative to the walk in progress, so not cached.
    if (stack.has(inst))
        return PROVEN;
    stack.add(inst);
    let result = NONE;
    const check = (child) => {
        if (result !== PROVEN && child?._zod) {
            const answer = isRecursive(child, stack);
            if (answer > result)
                result = answer;
        }
    };
    // `Reflect.ownKeys` rather than `Object.keys`, so a cycle through a declared symbol key is still seen
    const shape = (sh, spread) => {
        let answer = NONE;
        for (const key of Reflect.ownKeys(sh)) {
            const desc = Object.getOwnPropertyDescriptor(sh, key);
            // an object resolves its shape by spread, so a key it does not enumerate is never parsed; `z.properties` reads every own key and so keeps them all
            if (!desc.enumerable)
                continue;
            // resolving runs user code, and a factory mints a fresh subtree per read, so an edge the walk can't follow counts as a cycle
            const child = desc.get ? ASSUMED : desc.value?._zod ? isRecursive(desc.value, stack) : NONE;
            if (child > answer)
                answer = child;
        }
        return answer;
    };
    const merge = (answer) => {
        if (answer > result)
            result = answer;
    };
    const def = inst._zod.def;
    const kind = def.type;
    switch (kind) {
        case "object": {
            const raw = rawShape(def);
            // a def with no raw shape answers `shape` from an accessor of its own, and running that can mint a whole fresh subtree
            merge(raw ? shape(raw) : ASSUMED);
            check(def.catchall);
            break;
        }
        case "array":
            check(def.element);
            break;
        case "tuple":
            for (const el of def.items)
                check(el);
            check(def.rest);
            break;
        case "record":
        case "map":
            check(def.keyType);
            check(def.valueType);
            break;
        case "set":
            check(def.valueType);
            break;
        case "union":
            for (const el of def.options)
                check(el);
            break;
        case "intersection":
            check(def.left);
            check(def.right);
            break;
        case "optional":
        case "nullable":
        case "default":
        case "prefault":
        case "catch":
        case "readonly":
        case "nonoptional":
        case "promise":
        case "success":
            check(def.innerType);
            break;
        case "pipe":
            check(def.in);
            check(def.out);
            break;
        case "function":
            check(def.input);
            check(def.output);
            break;
        // `$ZodLazy` caches its inner on the def, so a resolved edge is followed exactly
        case "lazy": {
            const inner = def._cachedInner ?? (undefined);
            // walked with resolution off: one hop sees past the deferral, and a lazy that yields only another unresolved lazy is generative, so it stops there
            merge(inner ? isRecursive(inner, stack) : ASSUMED);
            break;
        }
        // a leaf by choice: `parts` are regex fragments, not data positions
        case "template_literal":
        // leaves
        case "string":
        case "number":
        case "int":
        case "boolean":
        case "bigint":
        case "symbol":
        case "undefined":
        case "null":
        case "void":
        case "never":
        case "any":
        case "unknown":
        case "date":
        case "nan":
        case "enum":
        case "literal":
        case "file":
        case "transform":
        case "custom":
            break;
        default: {
            // a user-defined kind can still hold children, and only its author knows where, so fall back to scanning the def — skipping accessors, since reading one can run user code
            for (const key in def) {
                const desc = Object.getOwnPropertyDescriptor(def, key);
                if (!desc || desc.get)
                    continue;
                const value = desc.value;
                if (!value || typeof value !== "object")
                    continue;
                if (value._zod)
                    check(value);
                else if (Array.isArray(value))
                    for (const el of value)
                        check(el);
            }
        }
    }
    stack.delete(inst);
    return settle(inst, result);
}
/** An assumed answer must not outlive the resolution that settles it, so only a certain one is cached. */
function settle(inst, answer) {
    if (answer !== ASSUMED)
        recursive.set(inst, answer === PROVEN);
    return answer;
}
function bucketFor(state, inst) {
    let bucket = state.buckets.get(inst);
    if (!bucket) {
        bucket = new WeakMap();
        state.buckets.set(inst, bucket);
    }
    return bucket;
}
// Set immediately before delegating to core and cleared immediately after, so `alloc` registers only for a visit this module is driving.
let handoff;
// Allocated but unfinished entries. `alloc` and the matching pop both happen in the synchronous part of a parse, so they nest even when children are async, and one stack serves every schema.
const open = [];
const memo = {
    alloc(_inst, payload, empty) {
        const bucket = handoff;
        if (!bucket)
            return empty;
        handoff = undefined;
        const entry = { value: empty, issues: null };
        bucket.set(payload.value, entry);
        open.push(entry);
        return empty;
    },
    guard(inst) {
        var _a;
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                // The value is a placeholder a back-edge is still waiting on, so the cycle closes through this transform. Its output can't exist in time to bind.
                if (ctx.direction !== "backward" && isBackEdge(ctx, payload.value))
                    throw new $ZodCyclicError();
                return base(payload, ctx);
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
    attach(inst) {
        var _a;
        let isRecursiveInst;
        let rechecked = false;
        // a recursive schema is re-entered many times per parse and its bucket never changes
        let lastCtx;
        let lastBucket;
        // Wraps `parse` in a deferred so it sees the container's final parse. Core's own deferred copies `parse` into `run` when there are no checks, and it ran first, so `run` is patched to match; with checks, `run` reads `parse` dynamically.
        (_a = inst._zod).deferred ?? (_a.deferred = []);
        inst._zod.deferred.push(() => {
            const base = inst._zod.parse;
            const wrapped = (payload, ctx) => {
                if (isRecursiveInst === undefined) {
                    const walked = isRecursive(inst, new Set());
                    if (walked === NONE) {
                        // Nothing here can ever fire, so take it back out.
                        inst._zod.parse = base;
                        if (inst._zod.run === wrapped)
                            inst._zod.run = base;
                        return base(payload, ctx);
                    }
                    // this parse resolves the deferred edges on its own path, so ask once more before latching
                    if (walked === PROVEN || rechecked)
                        isRecursiveInst = true;
                    else
                        rechecked = true;
                }
                const input = payload.value;
                if (!isRef(input))
                    return base(payload, ctx);
                let state = ctx[STATE];
                if (!state) {
                    state = { buckets: new WeakMap(), backEdges: undefined };
                    ctx[STATE] = state;
                }
                let bucket;
                if (lastCtx === ctx) {
                    bucket = lastBucket;
                }
                else {
                    bucket = bucketFor(state, inst);
                    lastCtx = ctx;
                    lastBucket = bucket;
                }
                const hit = bucket.get(input);
                if (hit) {
                    payload.value = hit.value;
                    if (hit.issues) {
                        if (hit.issues.length)
                            payload.issues.push(...cloneIssues(hit.issues));
                    }
                    else {
                        // Still being parsed: its own checks cover it, so skip them here.
                        payload.memo = true;
                        state.backEdges ?? (state.backEdges = new WeakSet());
                        state.backEdges.add(hit.value);
                    }
                    return payload;
                }
                handoff = bucket;
                const depth = open.length;
                const result = base(payload, ctx);
                handoff = undefined;
                // A container that rejected its input outright allocated nothing.
                const entry = open.length > depth ? open.pop() : undefined;
                // Both paths written out so the sync one allocates no closure. It runs once per node, and capturing here cost more than everything else combined.
                if (result instanceof Promise) {
                    return result.then((r) => {
                        if (entry)
                            entry.issues = r.issues.length ? cloneIssues(r.issues) : NO_ISSUES;
                        return r;
                    });
                }
                if (entry)
                    entry.issues = result.issues.length ? cloneIssues(result.issues) : NO_ISSUES;
                return result;
            };
            inst._zod.parse = wrapped;
            if (inst._zod.run === base)
                inst._zod.run = wrapped;
        });
    },
};
/** The memoizer that gives containers cycle support. `zod` installs it by default; `zod/mini` opts in with `config({ memoizer: memoizer() })`. */
function memoizer() {
    return memo;
}
/** Whether this value is a node a back-edge resolved to before it finished. */
function isBackEdge(ctx, value) {
    const backEdges = ctx[STATE]?.backEdges;
    return backEdges !== undefined && isRef(value) && backEdges.has(value);
}

const error = () => {
    const Sizable = {
        string: { unit: "characters", verb: "to have" },
        file: { unit: "bytes", verb: "to have" },
        array: { unit: "items", verb: "to have" },
        set: { unit: "items", verb: "to have" },
        map: { unit: "entries", verb: "to have" },
    };
    function getSizing(origin) {
        return Sizable[origin] ?? null;
    }
    const FormatDictionary = {
        regex: "input",
        email: "email address",
        url: "URL",
        emoji: "emoji",
        uuid: "UUID",
        uuidv4: "UUIDv4",
        uuidv6: "UUIDv6",
        nanoid: "nanoid",
        guid: "GUID",
        cuid: "cuid",
        cuid2: "cuid2",
        ulid: "ULID",
        xid: "XID",
        ksuid: "KSUID",
        datetime: "ISO datetime",
        date: "ISO date",
        time: "ISO time",
        duration: "ISO duration",
        ipv4: "IPv4 address",
        ipv6: "IPv6 address",
        mac: "MAC address",
        cidrv4: "IPv4 range",
        cidrv6: "IPv6 range",
        base64: "base64-encoded string",
        base64url: "base64url-encoded string",
        json_string: "JSON string",
        e164: "E.164 number",
        currency_code: "currency code",
        credit_card: "credit card number",
        iban: "IBAN",
        jwt: "JWT",
        template_literal: "input",
    };
    // type names: missing keys = do not translate (use raw value via ?? fallback)
    const TypeDictionary = {
        // Compatibility: "nan" -> "NaN" for display
        nan: "NaN",
        // All other type names omitted - they fall back to raw values via ?? operator
    };
    function getTypeName(type, input) {
        if (type === "number" && typeof input === "number" && !Number.isFinite(input)) {
            return String(input);
        }
        return TypeDictionary[type] ?? type;
    }
    return (issue) => {
        switch (issue.code) {
            case "invalid_type": {
                const expected = getTypeName(issue.expected);
                const receivedType = parsedType(issue.input);
                const received = getTypeName(receivedType, issue.input);
                return `Invalid input: expected ${expected}, received ${received}`;
            }
            case "invalid_value":
                if (issue.values.length === 1)
                    return `Invalid input: expected ${stringifyPrimitive(issue.values[0])}`;
                return `Invalid option: expected one of ${joinValues(issue.values, "|")}`;
            case "too_big": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? "<=" : "<";
                const sizing = getSizing(issue.origin);
                if (sizing)
                    return `Too big: expected ${issue.origin ?? "value"} to have ${adj}${issue.maximum.toString()} ${sizing.unit ?? "elements"}`;
                return `Too big: expected ${issue.origin ?? "value"} to be ${adj}${issue.maximum.toString()}`;
            }
            case "too_small": {
                const adj = issue.exact ? "exactly " : issue.inclusive ? ">=" : ">";
                const sizing = getSizing(issue.origin);
                if (sizing) {
                    return `Too small: expected ${issue.origin} to have ${adj}${issue.minimum.toString()} ${sizing.unit}`;
                }
                return `Too small: expected ${issue.origin} to be ${adj}${issue.minimum.toString()}`;
            }
            case "invalid_format": {
                const _issue = issue;
                if (_issue.format === "starts_with") {
                    return `Invalid string: must start with "${_issue.prefix}"`;
                }
                if (_issue.format === "ends_with")
                    return `Invalid string: must end with "${_issue.suffix}"`;
                if (_issue.format === "includes")
                    return `Invalid string: must include "${_issue.includes}"`;
                if (_issue.format === "regex")
                    return `Invalid string: must match pattern ${_issue.pattern}`;
                return `Invalid ${FormatDictionary[_issue.format] ?? issue.format}`;
            }
            case "not_multiple_of":
                return `Invalid number: must be a multiple of ${issue.divisor}`;
            case "unrecognized_keys":
                return `Unrecognized key${issue.keys.length > 1 ? "s" : ""}: ${joinValues(issue.keys, ", ")}`;
            case "invalid_key":
                return `Invalid key in ${issue.origin}`;
            case "invalid_union":
                if (issue.options && Array.isArray(issue.options) && issue.options.length > 0) {
                    const opts = issue.options.map((o) => `'${o}'`).join(" | ");
                    return `Invalid discriminator value. Expected ${opts}`;
                }
                if (issue.inclusive === false) {
                    return "Invalid input: more than one option matched";
                }
                return "Invalid input";
            case "invalid_element":
                return `Invalid value in ${issue.origin}`;
            default:
                return `Invalid input`;
        }
    };
};
function en () {
    return {
        localeError: error(),
    };
}

var _a;
class $ZodRegistry {
    constructor() {
        this._map = new WeakMap();
        this._idmap = new Map();
    }
    add(schema, ..._meta) {
        const meta = _meta[0];
        this._map.set(schema, meta);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.set(meta.id, schema);
        }
        return this;
    }
    clear() {
        this._map = new WeakMap();
        this._idmap = new Map();
        return this;
    }
    remove(schema) {
        const meta = this._map.get(schema);
        if (meta && typeof meta === "object" && "id" in meta) {
            this._idmap.delete(meta.id);
        }
        this._map.delete(schema);
        return this;
    }
    get(schema) {
        // return this._map.get(schema) as any;
        // inherit metadata
        const p = schema._zod.parent;
        if (p) {
            const pm = { ...(this.get(p) ?? {}) };
            delete pm.id; // do not inherit id
            const f = { ...pm, ...this._map.get(schema) };
            return Object.keys(f).length ? f : undefined;
        }
        return this._map.get(schema);
    }
    has(schema) {
        return this._map.has(schema);
    }
}
// registries
function registry() {
    return new $ZodRegistry();
}
(_a = globalThis).__zod_globalRegistry ?? (_a.__zod_globalRegistry = registry());
const globalRegistry = globalThis.__zod_globalRegistry;

function snapshotChecks(def) {
    if (def.checks)
        def.checks = [...def.checks];
    return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class, params) {
    return new Class(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _email(Class, params) {
    return new Class({
        type: "string",
        format: "email",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _guid(Class, params) {
    return new Class({
        type: "string",
        format: "guid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuid(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv4(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v4",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv6(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v6",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uuidv7(Class, params) {
    return new Class({
        type: "string",
        format: "uuid",
        check: "string_format",
        abort: false,
        version: "v7",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _url(Class, params) {
    return new Class({
        type: "string",
        format: "url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _emoji(Class, params) {
    return new Class({
        type: "string",
        format: "emoji",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _nanoid(Class, params) {
    return new Class({
        type: "string",
        format: "nanoid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link _cuid2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
// @__NO_SIDE_EFFECTS__
function _cuid(Class, params) {
    return new Class({
        type: "string",
        format: "cuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cuid2(Class, params) {
    return new Class({
        type: "string",
        format: "cuid2",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ulid(Class, params) {
    return new Class({
        type: "string",
        format: "ulid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _xid(Class, params) {
    return new Class({
        type: "string",
        format: "xid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ksuid(Class, params) {
    return new Class({
        type: "string",
        format: "ksuid",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv4(Class, params) {
    return new Class({
        type: "string",
        format: "ipv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _ipv6(Class, params) {
    return new Class({
        type: "string",
        format: "ipv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv4(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv4",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _cidrv6(Class, params) {
    return new Class({
        type: "string",
        format: "cidrv6",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64(Class, params) {
    return new Class({
        type: "string",
        format: "base64",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _base64url(Class, params) {
    return new Class({
        type: "string",
        format: "base64url",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _e164(Class, params) {
    return new Class({
        type: "string",
        format: "e164",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _jwt(Class, params) {
    return new Class({
        type: "string",
        format: "jwt",
        check: "string_format",
        abort: false,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class, params) {
    return new Class({
        type: "string",
        format: "datetime",
        check: "string_format",
        offset: false,
        local: false,
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDate(Class, params) {
    return new Class({
        type: "string",
        format: "date",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class, params) {
    return new Class({
        type: "string",
        format: "time",
        check: "string_format",
        precision: null,
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class, params) {
    return new Class({
        type: "string",
        format: "duration",
        check: "string_format",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _number(Class, params) {
    return new Class(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class, params) {
    return new Class({
        type: "number",
        check: "number_format",
        abort: false,
        format: "safeint",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class, params) {
    return new Class({
        type: "boolean",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class) {
    return new Class({
        type: "unknown",
    });
}
// @__NO_SIDE_EFFECTS__
function _never(Class, params) {
    return new Class({
        type: "never",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _lt(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _lte(value, params) {
    return new $ZodCheckLessThan({
        check: "less_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}
// @__NO_SIDE_EFFECTS__
function _gt(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: false,
    });
}
// @__NO_SIDE_EFFECTS__
function _gte(value, params) {
    return new $ZodCheckGreaterThan({
        check: "greater_than",
        ...normalizeParams(params),
        value,
        inclusive: true,
    });
}
// @__NO_SIDE_EFFECTS__
function _multipleOf(value, params) {
    return new $ZodCheckMultipleOf({
        check: "multiple_of",
        ...normalizeParams(params),
        value,
    });
}
// @__NO_SIDE_EFFECTS__
function _maxLength(maximum, params) {
    const ch = new $ZodCheckMaxLength({
        check: "max_length",
        ...normalizeParams(params),
        maximum,
    });
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _minLength(minimum, params) {
    return new $ZodCheckMinLength({
        check: "min_length",
        ...normalizeParams(params),
        minimum,
    });
}
// @__NO_SIDE_EFFECTS__
function _length(length, params) {
    return new $ZodCheckLengthEquals({
        check: "length_equals",
        ...normalizeParams(params),
        length,
    });
}
// @__NO_SIDE_EFFECTS__
function _regex(pattern, params) {
    return new $ZodCheckRegex({
        check: "string_format",
        format: "regex",
        ...normalizeParams(params),
        pattern,
    });
}
// @__NO_SIDE_EFFECTS__
function _lowercase(params) {
    return new $ZodCheckLowerCase({
        check: "string_format",
        format: "lowercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _uppercase(params) {
    return new $ZodCheckUpperCase({
        check: "string_format",
        format: "uppercase",
        ...normalizeParams(params),
    });
}
// @__NO_SIDE_EFFECTS__
function _includes(includes, params) {
    return new $ZodCheckIncludes({
        check: "string_format",
        format: "includes",
        ...normalizeParams(params),
        includes,
    });
}
// @__NO_SIDE_EFFECTS__
function _startsWith(prefix, params) {
    return new $ZodCheckStartsWith({
        check: "string_format",
        format: "starts_with",
        ...normalizeParams(params),
        prefix,
    });
}
// @__NO_SIDE_EFFECTS__
function _endsWith(suffix, params) {
    return new $ZodCheckEndsWith({
        check: "string_format",
        format: "ends_with",
        ...normalizeParams(params),
        suffix,
    });
}
// @__NO_SIDE_EFFECTS__
function _overwrite(tx) {
    return new $ZodCheckOverwrite({
        check: "overwrite",
        tx,
    });
}
// normalize
// @__NO_SIDE_EFFECTS__
function _normalize(form) {
    return _overwrite((input) => input.normalize(form));
}
// trim
// @__NO_SIDE_EFFECTS__
function _trim() {
    return _overwrite((input) => input.trim());
}
// toLowerCase
// @__NO_SIDE_EFFECTS__
function _toLowerCase() {
    return _overwrite((input) => input.toLowerCase());
}
// toUpperCase
// @__NO_SIDE_EFFECTS__
function _toUpperCase() {
    return _overwrite((input) => input.toUpperCase());
}
// slugify
// @__NO_SIDE_EFFECTS__
function _slugify() {
    return _overwrite((input) => slugify(input));
}
// @__NO_SIDE_EFFECTS__
function _array(Class, element, params) {
    return new Class({
        type: "array",
        element,
        // get element() {
        //   return element;
        // },
        ...normalizeParams(params),
    });
}
// same as _custom but defaults to abort:false
// @__NO_SIDE_EFFECTS__
function _refine(Class, fn, _params) {
    const schema = new Class({
        type: "custom",
        check: "custom",
        fn: fn,
        ...normalizeParams(_params),
    });
    return schema;
}
// @__NO_SIDE_EFFECTS__
function _superRefine(fn, params) {
    const ch = _check((payload) => {
        payload.addIssue = (issue$1) => {
            if (typeof issue$1 === "string") {
                payload.issues.push(issue(issue$1, payload.value, ch._zod.def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue$1;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = ch);
                _issue.continue ?? (_issue.continue = !ch._zod.def.abort); // abort is always undefined, so this is always true...
                payload.issues.push(issue(_issue));
            }
        };
        return fn(payload.value, payload);
    }, params);
    return ch;
}
// @__NO_SIDE_EFFECTS__
function _check(fn, params) {
    const ch = new $ZodCheck({
        check: "custom",
        ...normalizeParams(params),
    });
    ch._zod.check = fn;
    return ch;
}

function assignProps(target, ...sources) {
    for (const source of sources) {
        for (const key of Reflect.ownKeys(source)) {
            if (Object.prototype.propertyIsEnumerable.call(source, key)) {
                assignProp(target, key, source[key]);
            }
        }
    }
    return target;
}
// function initializeContext<T extends schemas.$ZodType>(inputs: JSONSchemaGeneratorParams<T>): ToJSONSchemaContext<T> {
//   return {
//     processor: inputs.processor,
//     metadataRegistry: inputs.metadata ?? globalRegistry,
//     target: inputs.target ?? "draft-2020-12",
//     unrepresentable: inputs.unrepresentable ?? "throw",
//   };
// }
function initializeContext(params) {
    // Normalize target: convert old non-hyphenated versions to hyphenated versions
    let target = params?.target ?? "draft-2020-12";
    if (target === "draft-4")
        target = "draft-04";
    if (target === "draft-7")
        target = "draft-07";
    return {
        processors: params.processors ?? {},
        metadataRegistry: params?.metadata ?? globalRegistry,
        target,
        unrepresentable: params?.unrepresentable ?? "throw",
        override: params?.override ?? (() => { }),
        io: params?.io ?? "output",
        counter: 0,
        seen: new Map(),
        sharedDefsExtractedFor: undefined,
        sharedEmitDoneFor: undefined,
        cycles: params?.cycles ?? "ref",
        reused: params?.reused ?? "inline",
        intersections: [],
        deferred: [],
        external: params?.external ?? undefined,
    };
}
/**
 * Applies the `unrepresentable` setting at a site that has no JSON Schema equivalent. Throws
 * `message` unless the setting (or the handler's return value) says otherwise. Returns `true` if a
 * custom JSON Schema was written into `json`, in which case the caller must not write its own.
 */
function handleUnrepresentable(schema, ctx, json, params, message) {
    const result = typeof ctx.unrepresentable === "function"
        ? ctx.unrepresentable({ zodSchema: schema, path: params.path, message })
        : ctx.unrepresentable;
    if (result === "any")
        return false;
    if (result === undefined || result === "throw")
        throw new Error(message);
    Object.assign(json, result);
    return true;
}
// never rename this back to `process`: bundler polyfills inject a top-level `const process` that a lexical declaration of the same name collides with (#6397)
function processSchema(schema, ctx, _params = { path: [], schemaPath: [] }) {
    var _a;
    const def = schema._zod.def;
    // check for schema in seens
    const seen = ctx.seen.get(schema);
    if (seen) {
        seen.count++;
        // check if cycle
        const isCycle = _params.schemaPath.includes(schema);
        if (isCycle) {
            seen.cycle = _params.path;
        }
        return seen.schema;
    }
    // initialize
    const result = { schema: {}, count: 1, cycle: undefined, path: _params.path };
    ctx.seen.set(schema, result);
    ctx.sharedDefsExtractedFor = undefined;
    ctx.sharedEmitDoneFor = undefined;
    // custom method overrides default behavior
    const overrideSchema = schema._zod.toJSONSchema?.();
    if (overrideSchema) {
        result.schema = overrideSchema;
    }
    else {
        const params = {
            ..._params,
            schemaPath: [..._params.schemaPath, schema],
            path: _params.path,
        };
        if (schema._zod.processJSONSchema) {
            schema._zod.processJSONSchema(ctx, result.schema, params);
        }
        else {
            const _json = result.schema;
            const processor = ctx.processors[def.type];
            if (!processor) {
                throw new Error(`[toJSONSchema]: Non-representable type encountered: ${def.type}`);
            }
            processor(schema, ctx, _json, params);
        }
        const parent = schema._zod.parent;
        if (parent) {
            // Also set ref if processor didn't (for inheritance)
            if (!result.ref)
                result.ref = parent;
            processSchema(parent, ctx, params);
            ctx.seen.get(parent).isParent = true;
        }
    }
    // metadata
    const meta = ctx.metadataRegistry.get(schema);
    if (meta)
        assignProps(result.schema, meta);
    if (ctx.io === "input" && isTransforming(schema)) {
        // examples/defaults only apply to output type of pipe
        delete result.schema.examples;
        delete result.schema.default;
    }
    // set prefault as default
    if (ctx.io === "input" && "_prefault" in result.schema)
        (_a = result.schema).default ?? (_a.default = result.schema._prefault);
    delete result.schema._prefault;
    // pulling fresh from ctx.seen in case it was overwritten
    const _result = ctx.seen.get(schema);
    return _result.schema;
}
// Escape a reference token for use in a JSON Pointer fragment (RFC 6901): `~` becomes `~0` and `/` becomes `~1`. The `~` replacement must run first.
function encodeJSONPointerSegment(segment) {
    return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function extractDefs(ctx, schema
// params: EmitParams
) {
    // iterate over seen map;
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // With `external` set, every registered schema resolves through the external branch of `makeURI`, so the root branch below produces the same ref the external branch would — this pass is identical whichever schema it is called with, and only needs to run once.
    if (ctx.external && ctx.sharedDefsExtractedFor === ctx.external)
        return;
    // Track ids to detect duplicates across different schemas
    const idToSchema = new Map();
    for (const entry of ctx.seen.entries()) {
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            const existing = idToSchema.get(id);
            if (existing && existing !== entry[0]) {
                throw new Error(`Duplicate schema id "${id}" detected during JSON Schema conversion. Two different schemas cannot share the same id when converted together.`);
            }
            idToSchema.set(id, entry[0]);
        }
    }
    // returns a ref to the schema defId will be empty if the ref points to an external schema (or #)
    const makeURI = (entry) => {
        // comparing the seen objects because sometimes multiple schemas map to the same seen object. e.g. lazy
        // external is configured
        const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
        if (ctx.external) {
            const externalId = ctx.external.registry.get(entry[0])?.id; // ?? "__shared";// `__schema${ctx.counter++}`;
            // check if schema is in the external registry
            const uriGenerator = ctx.external.uri ?? ((id) => id);
            if (externalId) {
                return { ref: uriGenerator(externalId) };
            }
            // otherwise, add to __shared
            const id = entry[1].defId ?? entry[1].schema.id ?? `schema${ctx.counter++}`;
            entry[1].defId = id; // set defId so it will be reused if needed
            return { defId: id, ref: `${uriGenerator("__shared")}#/${defsSegment}/${encodeJSONPointerSegment(id)}` };
        }
        const uriPrefix = `#`;
        const defUriPrefix = `${uriPrefix}/${defsSegment}/`;
        // an id-less root has nowhere to be extracted to, so it stays inline and self-references as `#`
        if (entry[1] === root && !entry[1].schema.id) {
            return { ref: uriPrefix };
        }
        // self-contained schema
        const defId = entry[1].schema.id ?? `__schema${ctx.counter++}`;
        return { defId, ref: defUriPrefix + encodeJSONPointerSegment(defId) };
    };
    // stored cached version in `def` property remove all properties, set $ref
    const extractToDef = (entry) => {
        // if the schema is already a reference, do not extract it
        if (entry[1].schema.$ref) {
            return;
        }
        const seen = entry[1];
        const { ref, defId } = makeURI(entry);
        seen.def = { ...seen.schema };
        // defId won't be set if the schema is a reference to an external schema or if the schema is the root schema
        if (defId)
            seen.defId = defId;
        // wipe away all properties except $ref
        const schema = seen.schema;
        for (const key in schema) {
            delete schema[key];
        }
        schema.$ref = ref;
    };
    // throw on cycles
    // break cycles
    if (ctx.cycles === "throw") {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.cycle) {
                throw new Error("Cycle detected: " +
                    `#/${seen.cycle?.join("/")}/<root>` +
                    '\n\nSet the `cycles` parameter to `"ref"` to resolve cyclical schemas with defs.');
            }
        }
    }
    // extract schemas into $defs
    for (const entry of ctx.seen.entries()) {
        const seen = entry[1];
        // convert root schema to # $ref
        if (schema === entry[0]) {
            extractToDef(entry); // this has special handling for the root schema
            continue;
        }
        // extract schemas that are in the external registry
        if (ctx.external) {
            const ext = ctx.external.registry.get(entry[0])?.id;
            if (schema !== entry[0] && ext) {
                extractToDef(entry);
                continue;
            }
        }
        // extract schemas with `id` meta
        const id = ctx.metadataRegistry.get(entry[0])?.id;
        if (id) {
            extractToDef(entry);
            continue;
        }
        // break cycles
        if (seen.cycle) {
            // any
            extractToDef(entry);
            continue;
        }
        // extract reused schemas
        if (seen.count > 1) {
            if (ctx.reused === "ref") {
                extractToDef(entry);
            }
        }
    }
    if (ctx.external)
        ctx.sharedDefsExtractedFor = ctx.external;
}
/** Rewrites `anyOf: [{type: "a"}, {type: "b"}]` to `type: ["a", "b"]`, which every JSON Schema draft treats as equivalent and most consumers render far better for the nullable case. Only branches that are a bare type assertion qualify — anything carrying a constraint, `$ref`, `const` or metadata is left alone. Runs after `flattenRef`, so a branch an override decorated or `$defs` extraction turned into a `$ref` is no longer bare and correctly stays in `anyOf`. `oneOf` is excluded: `integer` and `number` overlap, so "exactly one" and "at least one" are not the same there. OpenAPI 3.0 is excluded: its `type` must be a single string. */
function compactTypeUnion(schema) {
    const options = schema.anyOf;
    if (!Array.isArray(options) || options.length === 0 || schema.type !== undefined)
        return;
    const types = [];
    for (const option of options) {
        if (!option || typeof option !== "object")
            return;
        // A branch that is itself a compactible union folds into this one — nested `anyOf` and a flat `type` array say the same thing. Compacting it first also makes the result independent of the order this pass walks the seen map in.
        compactTypeUnion(option);
        const keys = Object.keys(option);
        if (keys.length !== 1 || keys[0] !== "type")
            return;
        const type = option.type;
        for (const member of Array.isArray(type) ? type : [type]) {
            if (typeof member !== "string")
                return;
            if (!types.includes(member))
                types.push(member);
        }
    }
    delete schema.anyOf;
    // A `type` array must be non-empty and unique (metaschema); a single member is spelled as a bare string.
    schema.type = types.length === 1 ? types[0] : types;
}
/** Keywords `foldIntersection` knows how to combine. Anything else — `$ref`, `patternProperties`,
 * an annotation like `description` — makes a member unfoldable, so a constraint this does not
 * understand leaves the `allOf` alone instead of being silently dropped or misattributed. */
const FOLDABLE_KEYS = new Set(["type", "properties", "required", "additionalProperties"]);
const UNION_KEYS = ["oneOf", "anyOf"];
/** A member's constraint on a key it does not declare itself. A `catchall` states one; `false`, an absent `additionalProperties`, and the empty schema a loose object emits state nothing. */
function undeclaredConstraint(member) {
    const extra = member.additionalProperties;
    if (extra === undefined || extra === false || typeof extra !== "object" || extra === null)
        return null;
    return Object.keys(extra).length ? extra : null;
}
/** Combines object members into the single object they describe together, or returns `null` if any of them carries a keyword outside {@link FOLDABLE_KEYS}. */
function foldObjects(members) {
    const objects = [];
    for (const member of members) {
        // A boolean subschema is legal JSON Schema and carries no keywords to fold.
        if (typeof member !== "object" || member.type !== "object")
            return null;
        for (const key in member) {
            if (!FOLDABLE_KEYS.has(key))
                return null;
        }
        objects.push(member);
    }
    const properties = {};
    const required = new Set();
    for (const object of objects) {
        for (const key in object.properties) {
            // `in` would report a `__proto__` key as already present via the prototype chain and skip it.
            if (Object.prototype.hasOwnProperty.call(properties, key))
                continue;
            // Every member constrains this key: the ones that declare it say how, and a `catchall` member constrains it too even though it does not name it. The key has to satisfy all of them, which is the same intersection one level down.
            const parts = [];
            for (const other of objects) {
                const part = other.properties?.[key] ?? undeclaredConstraint(other);
                if (part === null || part === undefined)
                    continue;
                if (!parts.some((seen) => JSON.stringify(seen) === JSON.stringify(part)))
                    parts.push(part);
            }
            const merged = parts.length === 1
                ? parts[0]
                : (foldObjects(parts) ?? { allOf: parts });
            assignProp(properties, key, merged);
        }
        for (const key of object.required ?? [])
            required.add(key);
    }
    const folded = { type: "object", properties };
    if (required.size)
        folded.required = [...required];
    // A key no member declares is rejected only when every member rejects it, so the fold is closed only when every member is. Otherwise it carries whatever the `catchall` members demand of such a key.
    if (objects.every((object) => object.additionalProperties === false)) {
        folded.additionalProperties = false;
    }
    else {
        const constraints = [];
        for (const object of objects) {
            const constraint = undeclaredConstraint(object);
            if (constraint && !constraints.some((seen) => JSON.stringify(seen) === JSON.stringify(constraint)))
                constraints.push(constraint);
        }
        if (constraints.length === 1)
            folded.additionalProperties = constraints[0];
        else if (constraints.length > 1)
            folded.additionalProperties = { allOf: constraints };
    }
    return folded;
}
/** `additionalProperties` in an `allOf` member sees only that member's own `properties`, so two
 * closed object members reject each other's keys and the schema validates nothing. Zod's parser
 * pools the key sets instead — `handleIntersectionResults` reports a key as unrecognized only when
 * *every* side rejects it — so the emitted schema has to pool them too, and folding the members
 * into one object is the encoding that says so on every target.
 *
 * This runs from `finalize`, after `extractDefs`, which is what keeps it clear of the `$ref`
 * machinery: a member extracted into `$defs` is already a `$ref` by now and declines to fold, so it
 * keeps its reference and its own closedness rather than being inlined as a stale copy. */
function foldIntersection(json) {
    const allOf = json.allOf;
    if (!Array.isArray(allOf) || allOf.length < 2)
        return;
    // An `override` runs before this pass and may have written object keywords onto the intersection itself. Those are deliberate, so decline rather than overwrite them.
    for (const key of FOLDABLE_KEYS)
        if (key in json)
            return;
    // An intersection distributes over a union: `A & (X | Y)` is `(A & X) | (A & Y)`. Only the first union is distributed over; a second one stays among the members every branch folds against, where it fails the object check and declines the whole intersection rather than multiplying out.
    const unions = allOf.filter((m) => UNION_KEYS.some((k) => Array.isArray(m[k])));
    let folded = null;
    if (!unions.length) {
        folded = foldObjects(allOf);
    }
    else {
        const union = unions[0];
        const keyword = UNION_KEYS.find((k) => Array.isArray(union[k]));
        if (Object.keys(union).length !== 1)
            return;
        const rest = allOf.filter((m) => m !== union);
        const branches = union[keyword].map((branch) => foldObjects([...rest, branch]));
        if (branches.some((b) => !b))
            return;
        folded = { [keyword]: branches };
    }
    if (!folded)
        return;
    delete json.allOf;
    assignProps(json, folded);
}
function finalize(ctx, schema) {
    const root = ctx.seen.get(schema);
    if (!root)
        throw new Error("Unprocessed schema. This is a bug in Zod.");
    // flatten refs - inherit properties from parent schemas
    const flattenRef = (zodSchema) => {
        const seen = ctx.seen.get(zodSchema);
        // already processed
        if (seen.ref === null)
            return;
        const schema = seen.def ?? seen.schema;
        const _cached = { ...schema };
        const ref = seen.ref;
        seen.ref = null; // prevent infinite recursion
        if (ref) {
            flattenRef(ref);
            const refSeen = ctx.seen.get(ref);
            const refSchema = refSeen.schema;
            // merge referenced schema into current
            if (refSchema.$ref && (ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0")) {
                // older drafts can't combine $ref with other properties
                schema.allOf = schema.allOf ?? [];
                schema.allOf.push(refSchema);
            }
            else {
                assignProps(schema, refSchema);
            }
            // restore child's own properties (child wins)
            assignProps(schema, _cached);
            const isParentRef = zodSchema._zod.parent === ref;
            // For parent chain, child is a refinement - remove parent-only properties
            if (isParentRef) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (!(key in _cached)) {
                        delete schema[key];
                    }
                }
            }
            // When ref was extracted to $defs, remove properties that match the definition
            if (refSchema.$ref && refSeen.def) {
                for (const key in schema) {
                    if (key === "$ref" || key === "allOf")
                        continue;
                    if (key in refSeen.def && JSON.stringify(schema[key]) === JSON.stringify(refSeen.def[key])) {
                        delete schema[key];
                    }
                }
            }
        }
        // If parent was extracted (has $ref), propagate $ref to this schema. This handles cases like: readonly().meta({id}).describe() where processor sets ref to innerType but parent should be referenced
        const parent = zodSchema._zod.parent;
        if (parent && parent !== ref) {
            // Ensure parent is processed first so its def has inherited properties
            flattenRef(parent);
            const parentSeen = ctx.seen.get(parent);
            if (parentSeen?.schema.$ref) {
                schema.$ref = parentSeen.schema.$ref;
                // De-duplicate with parent's definition
                if (parentSeen.def) {
                    for (const key in schema) {
                        if (key === "$ref" || key === "allOf")
                            continue;
                        if (key in parentSeen.def && JSON.stringify(schema[key]) === JSON.stringify(parentSeen.def[key])) {
                            delete schema[key];
                        }
                    }
                }
            }
        }
        // execute overrides
        ctx.override({
            zodSchema: zodSchema,
            jsonSchema: schema,
            path: seen.path ?? [],
        });
    };
    // Flattening walks the whole map and clears each `ref` as it goes, so a second call over the same map is a no-op scan. Skip it outright once it has run for a registry conversion.
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of [...ctx.seen.entries()].reverse()) {
            flattenRef(entry[0]);
        }
        if (ctx.target !== "openapi-3.0") {
            for (const entry of ctx.seen.entries()) {
                compactTypeUnion(entry[1].def ?? entry[1].schema);
            }
        }
        for (const rewrite of ctx.deferred)
            rewrite();
        // After flattening, every member that was extracted is a `$ref`, so the fold sees the final shape. A schema that inherits an intersection — through `z.lazy`, or any `ref` chain — holds the same `allOf` array, so fold by array identity to catch every copy.
        if (ctx.intersections.length) {
            const carriers = new Map();
            for (const seen of ctx.seen.values()) {
                for (const json of [seen.schema, seen.def]) {
                    const allOf = json?.allOf;
                    if (!Array.isArray(allOf))
                        continue;
                    const existing = carriers.get(allOf);
                    if (existing)
                        existing.push(json);
                    else
                        carriers.set(allOf, [json]);
                }
            }
            for (const allOf of ctx.intersections) {
                for (const json of carriers.get(allOf) ?? [])
                    foldIntersection(json);
            }
        }
    }
    const result = {};
    if (ctx.target === "draft-2020-12") {
        result.$schema = "https://json-schema.org/draft/2020-12/schema";
    }
    else if (ctx.target === "draft-07") {
        result.$schema = "http://json-schema.org/draft-07/schema#";
    }
    else if (ctx.target === "draft-04") {
        result.$schema = "http://json-schema.org/draft-04/schema#";
    }
    else if (ctx.target === "openapi-3.0") ;
    else ;
    if (ctx.external?.uri) {
        const id = ctx.external.registry.get(schema)?.id;
        if (!id)
            throw new Error("Schema is missing an `id` property");
        result.$id = ctx.external.uri(id);
    }
    // when the root was extracted into $defs, `root.schema` is the `$ref` wrapper and `root.def` is the body that now lives under $defs
    assignProps(result, root.defId ? root.schema : (root.def ?? root.schema));
    // The `id` in `.meta()` is a Zod-specific registration tag used to extract schemas into $defs — it is not user-facing JSON Schema metadata. Strip it from the output body where it would otherwise leak. The id is preserved implicitly via the $defs key (and via $ref paths).
    const rootMetaId = ctx.metadataRegistry.get(schema)?.id;
    if (rootMetaId !== undefined && result.id === rootMetaId)
        delete result.id;
    // build defs object. With `external`, `defs` is the shared object every schema writes into, so the same entries are reassigned on every call. Without it, `defs` is fresh per call and must be rebuilt.
    const defs = ctx.external?.defs ?? {};
    if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
        for (const entry of ctx.seen.entries()) {
            const seen = entry[1];
            if (seen.def && seen.defId) {
                if (seen.def.id === seen.defId)
                    delete seen.def.id;
                assignProp(defs, seen.defId, seen.def);
            }
        }
    }
    if (ctx.external)
        ctx.sharedEmitDoneFor = ctx.external;
    // set definitions in result
    if (ctx.external) ;
    else {
        if (Object.keys(defs).length > 0) {
            if (ctx.target === "draft-2020-12") {
                result.$defs = defs;
            }
            else {
                result.definitions = defs;
            }
        }
    }
    try {
        // this "finalizes" this schema and ensures all cycles are removed each call to finalize() is functionally independent though the seen map is shared
        const finalized = JSON.parse(JSON.stringify(result));
        Object.defineProperty(finalized, "~standard", {
            value: {
                ...schema["~standard"],
                jsonSchema: {
                    input: createStandardJSONSchemaMethod(schema, "input", ctx.processors),
                    output: createStandardJSONSchemaMethod(schema, "output", ctx.processors),
                },
            },
            enumerable: false,
            writable: false,
        });
        return finalized;
    }
    catch (_err) {
        throw new Error("Error converting schema to JSON.");
    }
}
function isTransforming(_schema, _ctx) {
    const ctx = _ctx ?? { seen: new Set() };
    if (ctx.seen.has(_schema))
        return false;
    ctx.seen.add(_schema);
    const def = _schema._zod.def;
    if (def.type === "transform")
        return true;
    if (def.type === "array")
        return isTransforming(def.element, ctx);
    if (def.type === "set")
        return isTransforming(def.valueType, ctx);
    if (def.type === "lazy")
        return isTransforming(def.getter(), ctx);
    if (def.type === "promise" ||
        def.type === "optional" ||
        def.type === "nonoptional" ||
        def.type === "nullable" ||
        def.type === "readonly" ||
        def.type === "default" ||
        def.type === "prefault" ||
        def.type === "catch") {
        return isTransforming(def.innerType, ctx);
    }
    if (def.type === "intersection") {
        return isTransforming(def.left, ctx) || isTransforming(def.right, ctx);
    }
    if (def.type === "record" || def.type === "map") {
        return isTransforming(def.keyType, ctx) || isTransforming(def.valueType, ctx);
    }
    if (def.type === "pipe") {
        if (_schema._zod.traits.has("$ZodCodec"))
            return true;
        return isTransforming(def.in, ctx) || isTransforming(def.out, ctx);
    }
    if (def.type === "object") {
        for (const key in def.shape) {
            if (isTransforming(def.shape[key], ctx))
                return true;
        }
        return false;
    }
    if (def.type === "union") {
        for (const option of def.options) {
            if (isTransforming(option, ctx))
                return true;
        }
        return false;
    }
    if (def.type === "tuple") {
        for (const item of def.items) {
            if (isTransforming(item, ctx))
                return true;
        }
        if (def.rest && isTransforming(def.rest, ctx))
            return true;
        return false;
    }
    return false;
}
/**
 * Creates a toJSONSchema method for a schema instance.
 * This encapsulates the logic of initializing context, processing, extracting defs, and finalizing.
 */
const createToJSONSchemaMethod = (schema, processors = {}) => (params) => {
    const ctx = initializeContext({ ...params, processors });
    processSchema(schema, ctx);
    extractDefs(ctx, schema);
    return finalize(ctx, schema);
};
const createStandardJSONSchemaMethod = (schema, io, processors = {}) => (params) => {
    const { libraryOptions, target } = params ?? {};
    const ctx = initializeContext({ ...(libraryOptions ?? {}), target, io, processors });
    processSchema(schema, ctx);
    extractDefs(ctx, schema);
    return finalize(ctx, schema);
};

const narrowMin = (agg, key, value) => {
    if (agg[key] === undefined || value > agg[key])
        agg[key] = value;
};
const narrowMax = (agg, key, value) => {
    if (agg[key] === undefined || value < agg[key])
        agg[key] = value;
};
const narrowBoth = (agg, value) => {
    narrowMin(agg, "minimum", value);
    narrowMax(agg, "maximum", value);
};
const addDivisor = (agg, value) => {
    agg.multipleOf ?? (agg.multipleOf = []);
    if (!agg.multipleOf.includes(value))
        agg.multipleOf.push(value);
};
const addPattern = (agg, pattern) => {
    agg.patterns ?? (agg.patterns = new Set());
    agg.patterns.add(pattern);
};
const intersectMime = (agg, mime) => {
    agg.mime = agg.mime ? agg.mime.filter((m) => mime.includes(m)) : [...mime];
};
// last-wins, matching the bag's historical write order; the flag keeps an integer format from being lost to a later float one
const setFormat = (agg, format) => {
    agg.format = format;
    if (format.includes("int"))
        agg.isInt = true;
};
const minContributor = (agg, def) => narrowMin(agg, "minimum", def.minimum);
const maxContributor = (agg, def) => narrowMax(agg, "maximum", def.maximum);
const formatContributor = (ranges) => (agg, def) => {
    setFormat(agg, def.format);
    const [minimum, maximum] = ranges[def.format];
    narrowMin(agg, "minimum", minimum);
    narrowMax(agg, "maximum", maximum);
};
const contributors = {
    greater_than: (agg, def) => narrowMin(agg, def.inclusive ? "minimum" : "exclusiveMinimum", def.value),
    less_than: (agg, def) => narrowMax(agg, def.inclusive ? "maximum" : "exclusiveMaximum", def.value),
    multiple_of: (agg, def) => addDivisor(agg, def.value),
    number_format: formatContributor(NUMBER_FORMAT_RANGES),
    bigint_format: formatContributor(BIGINT_FORMAT_RANGES),
    min_length: minContributor,
    max_length: maxContributor,
    length_equals: (agg, def) => narrowBoth(agg, def.length),
    min_size: minContributor,
    max_size: maxContributor,
    size_equals: (agg, def) => narrowBoth(agg, def.size),
    string_format: (agg, def) => {
        setFormat(agg, def.format);
        if (def.pattern)
            addPattern(agg, def.pattern);
        if (def.format === "base64" || def.format === "base64url")
            agg.contentEncoding = def.format;
        if (def.local || def.precision === -1)
            agg.laxFormat = true;
    },
    mime_type: (agg, def) => intersectMime(agg, def.mime),
};
function aggregateChecks(schema) {
    const agg = {};
    const def = schema._zod.def;
    // a format schema is its own first check, same rule as $ZodType init
    const list = schema._zod.traits.has("$ZodCheck")
        ? [schema, ...(def.checks ?? [])]
        : (def.checks ?? []);
    for (const ch of list)
        contributors[ch._zod.def.check]?.(agg, ch._zod.def);
    // reconcile with the bag so third-party onattach contributions still land; first-party residue is never tighter than the fold, so merging it back is idempotent for one and additive for the other
    const bag = schema._zod.bag;
    if (bag.minimum !== undefined)
        narrowMin(agg, "minimum", bag.minimum);
    if (bag.exclusiveMinimum !== undefined)
        narrowMin(agg, "exclusiveMinimum", bag.exclusiveMinimum);
    if (bag.maximum !== undefined)
        narrowMax(agg, "maximum", bag.maximum);
    if (bag.exclusiveMaximum !== undefined)
        narrowMax(agg, "exclusiveMaximum", bag.exclusiveMaximum);
    if (bag.multipleOf !== undefined)
        addDivisor(agg, bag.multipleOf);
    if (bag.format !== undefined) {
        agg.format ?? (agg.format = bag.format);
        if (bag.format.includes("int"))
            agg.isInt = true;
    }
    if (bag.mime)
        intersectMime(agg, bag.mime);
    for (const pattern of bag.patterns ?? [])
        addPattern(agg, pattern);
    return agg;
}
const formatMap = {
    guid: "uuid",
    url: "uri",
    datetime: "date-time",
    json_string: "json-string",
    regex: "", // do not set
};
// ==================== SIMPLE TYPE PROCESSORS ====================
// the runtime patterns are lax so parse paths never overflow the regex stack; the emitted schema swaps in the exact block forms, which zod itself never executes
const exactPatterns = new Map([
    [base64Charset, base64],
    [base64urlCharset, base64url],
]);
const exactPattern = (p) => exactPatterns.get(p) ?? p;
const stringProcessor = (schema, ctx, _json, _params) => {
    const json = _json;
    json.type = "string";
    const { minimum, maximum, format, patterns, contentEncoding, laxFormat } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minLength = minimum;
    if (typeof maximum === "number")
        json.maxLength = maximum;
    // custom pattern overrides format
    if (format) {
        json.format = formatMap[format] ?? format;
        if (json.format === "")
            delete json.format; // empty format is not valid
        // `z.iso.time()` is never full-time, and `laxFormat` carries the datetime shapes that also accept what their keyword forbids
        if (format === "time" || laxFormat) {
            delete json.format;
        }
    }
    if (contentEncoding)
        json.contentEncoding = contentEncoding;
    if (patterns && patterns.size > 0) {
        const patternList = [...patterns].map(exactPattern);
        if (patternList.length === 1)
            json.pattern = patternList[0].source;
        else if (patternList.length > 1) {
            json.allOf = [
                ...patternList.map((regex) => ({
                    ...(ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0"
                        ? { type: "string" }
                        : {}),
                    pattern: regex.source,
                })),
            ];
        }
    }
};
const numberProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const { minimum, maximum, multipleOf, exclusiveMaximum, exclusiveMinimum, isInt } = aggregateChecks(schema);
    json.type = isInt ? "integer" : "number";
    // when both minimum and exclusiveMinimum exist, pick the more restrictive one
    const exMin = typeof exclusiveMinimum === "number" && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY);
    const exMax = typeof exclusiveMaximum === "number" && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY);
    const legacy = ctx.target === "draft-04" || ctx.target === "openapi-3.0";
    if (exMin) {
        if (legacy) {
            json.minimum = exclusiveMinimum;
            json.exclusiveMinimum = true;
        }
        else {
            json.exclusiveMinimum = exclusiveMinimum;
        }
    }
    else if (typeof minimum === "number") {
        json.minimum = minimum;
    }
    if (exMax) {
        if (legacy) {
            json.maximum = exclusiveMaximum;
            json.exclusiveMaximum = true;
        }
        else {
            json.exclusiveMaximum = exclusiveMaximum;
        }
    }
    else if (typeof maximum === "number") {
        json.maximum = maximum;
    }
    if (multipleOf) {
        // JSON Schema requires a divisor strictly greater than zero, and a non-finite one does not survive JSON at all. A negative divisor accepts exactly what its absolute value accepts, so it still maps; zero, NaN and Infinity have no keyword form.
        const divisors = new Set();
        for (const divisor of multipleOf) {
            if (Number.isFinite(divisor) && divisor !== 0)
                divisors.add(Math.abs(divisor));
            else
                handleUnrepresentable(schema, ctx, json, params, `A multipleOf divisor of ${divisor} cannot be represented in JSON Schema`);
        }
        // chained divisors are a conjunction the keyword cannot carry alone, so extras ride an allOf, same as stacked patterns
        const [first, ...rest] = divisors;
        if (first !== undefined)
            json.multipleOf = first;
        if (rest.length)
            json.allOf = [...(json.allOf ?? []), ...rest.map((m) => ({ multipleOf: m }))];
    }
};
const booleanProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const bigintProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "BigInt cannot be represented in JSON Schema");
};
const symbolProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Symbols cannot be represented in JSON Schema");
};
const nullProcessor = (_schema, ctx, json, _params) => {
    if (ctx.target === "openapi-3.0") {
        json.type = "string";
        json.nullable = true;
        json.enum = [null];
    }
    else {
        json.type = "null";
    }
};
const undefinedProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Undefined cannot be represented in JSON Schema");
};
const voidProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Void cannot be represented in JSON Schema");
};
const neverProcessor = (_schema, _ctx, json, _params) => {
    json.not = {};
};
const anyProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const unknownProcessor = (_schema, _ctx, _json, _params) => {
    // empty schema accepts anything
};
const dateProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Date cannot be represented in JSON Schema");
};
const enumProcessor = (schema, _ctx, json, _params) => {
    const def = schema._zod.def;
    const values = getEnumValues(def.entries);
    // an empty enum accepts nothing, same as z.never()
    if (values.length === 0) {
        json.not = {};
        return;
    }
    // Number enums can have both string and number values
    if (values.every((v) => typeof v === "number"))
        json.type = "number";
    if (values.every((v) => typeof v === "string"))
        json.type = "string";
    json.enum = values;
};
const literalProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // a literal with no values accepts nothing, same as z.never()
    if (def.values.length === 0) {
        json.not = {};
        return;
    }
    const vals = [];
    for (const val of def.values) {
        if (val === undefined) {
            // a custom schema replaces the whole literal, so there is nothing left to accumulate
            if (handleUnrepresentable(schema, ctx, json, params, "Literal `undefined` cannot be represented in JSON Schema"))
                return;
            // otherwise do not add to vals
        }
        else if (typeof val === "bigint") {
            if (handleUnrepresentable(schema, ctx, json, params, "BigInt literals cannot be represented in JSON Schema"))
                return;
            vals.push(Number(val));
        }
        else {
            vals.push(val);
        }
    }
    if (vals.length === 0) ;
    else if (vals.length === 1) {
        const val = vals[0];
        json.type = val === null ? "null" : typeof val;
        if (ctx.target === "draft-04" || ctx.target === "openapi-3.0") {
            json.enum = [val];
        }
        else {
            json.const = val;
        }
    }
    else {
        if (vals.every((v) => typeof v === "number"))
            json.type = "number";
        if (vals.every((v) => typeof v === "string"))
            json.type = "string";
        if (vals.every((v) => typeof v === "boolean"))
            json.type = "boolean";
        if (vals.every((v) => v === null))
            json.type = "null";
        json.enum = vals;
    }
};
const nanProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "NaN cannot be represented in JSON Schema");
};
const templateLiteralProcessor = (schema, _ctx, json, _params) => {
    const _json = json;
    const pattern = schema._zod.pattern;
    if (!pattern)
        throw new Error("Pattern not found in template literal");
    _json.type = "string";
    _json.pattern = pattern.source;
};
const fileProcessor = (schema, _ctx, json, _params) => {
    const _json = json;
    _json.type = "string";
    _json.format = "binary";
    _json.contentEncoding = "binary";
    const { minimum, maximum, mime } = aggregateChecks(schema);
    if (minimum !== undefined)
        _json.minLength = minimum;
    if (maximum !== undefined)
        _json.maxLength = maximum;
    if (!mime)
        return;
    // an empty intersection means the mime checks share no value, so nothing passes at runtime; `anyOf` must be non-empty, so the false schema is `not: {}`
    if (mime.length === 0)
        _json.not = {};
    else if (mime.length === 1)
        _json.contentMediaType = mime[0];
    // only contentMediaType differs, so the shared props stay at the root
    else
        _json.anyOf = mime.map((m) => ({ contentMediaType: m }));
};
const successProcessor = (_schema, _ctx, json, _params) => {
    json.type = "boolean";
};
const customProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Custom types cannot be represented in JSON Schema");
};
const functionProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Function types cannot be represented in JSON Schema");
};
const transformProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Transforms cannot be represented in JSON Schema");
};
const mapProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Map cannot be represented in JSON Schema");
};
const setProcessor = (schema, ctx, json, params) => {
    handleUnrepresentable(schema, ctx, json, params, "Set cannot be represented in JSON Schema");
};
// ==================== COMPOSITE TYPE PROCESSORS ====================
const arrayProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
    json.type = "array";
    json.items = processSchema(def.element, ctx, {
        ...params,
        path: [...params.path, "items"],
    });
};
// Transform and catch set `optin = "optional"` at runtime so the parser lets them observe an
// absent key, but their declared input type stays required. An input JSON Schema describes the
// declared type, so resolve past them to the schema that actually carries the optionality.
// Used by both `objectProcessor` (for `required`) and `tupleProcessor` (for `minItems`); see
// wiki/optionality.md, "The JSON Schema emitter reads the *static* value".
function inputOptin(schema) {
    const def = schema._zod.def;
    if (def.type === "pipe" && def.in._zod.traits.has("$ZodTransform")) {
        return inputOptin(def.out);
    }
    if (def.type === "catch") {
        return inputOptin(def.innerType);
    }
    return schema._zod.optin;
}
const objectProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    const shape = def.shape;
    // dropping it while still emitting `additionalProperties: false` would emit a schema that rejects data this one requires
    const symbolKeys = Object.getOwnPropertySymbols(shape);
    if (symbolKeys.length &&
        handleUnrepresentable(schema, ctx, json, params, "Symbol keys cannot be represented in JSON Schema")) {
        return;
    }
    json.type = "object";
    json.properties = {};
    for (const key in shape) {
        // assignProp so a __proto__ key becomes an own property instead of hitting the inherited setter on the plain {} we build into
        assignProp(json.properties, key, processSchema(shape[key], ctx, {
            ...params,
            path: [...params.path, "properties", key],
        }));
    }
    // required keys
    const requiredKeys = [];
    for (const key of Object.keys(shape)) {
        const field = def.shape[key];
        if (ctx.io === "input" ? inputOptin(field) === undefined : field._zod.optout === undefined) {
            requiredKeys.push(key);
        }
    }
    if (requiredKeys.length > 0) {
        json.required = requiredKeys;
    }
    // catchall
    if (def.catchall?._zod.def.type === "never") {
        // strict
        json.additionalProperties = false;
    }
    else if (!def.catchall) {
        // regular
        if (ctx.io === "output")
            json.additionalProperties = false;
    }
    else if (def.catchall) {
        json.additionalProperties = processSchema(def.catchall, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
};
const unionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    // Exclusive unions (inclusive === false) use oneOf (exactly one match) instead of anyOf (one or more matches). This includes both z.xor() and discriminated unions
    const isExclusive = def.inclusive === false;
    const options = def.options.map((x, i) => processSchema(x, ctx, {
        ...params,
        path: [...params.path, isExclusive ? "oneOf" : "anyOf", i],
    }));
    if (isExclusive) {
        json.oneOf = options;
    }
    else {
        json.anyOf = options;
    }
};
const intersectionProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const a = processSchema(def.left, ctx, {
        ...params,
        path: [...params.path, "allOf", 0],
    });
    const b = processSchema(def.right, ctx, {
        ...params,
        path: [...params.path, "allOf", 1],
    });
    const isSimpleIntersection = (val) => "allOf" in val && Object.keys(val).length === 1;
    const allOf = [
        ...(isSimpleIntersection(a) ? a.allOf : [a]),
        ...(isSimpleIntersection(b) ? b.allOf : [b]),
    ];
    json.allOf = allOf;
    // Recorded innermost first, so a nested intersection has already folded by the time this one is considered. The array is the handle rather than the schema, because a wrapper that inherits this schema shares the same array; `finalize` folds every object holding it. See `foldIntersection`.
    ctx.intersections.push(allOf);
};
const tupleProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "array";
    const prefixPath = ctx.target === "draft-2020-12" ? "prefixItems" : "items";
    const restPath = ctx.target === "draft-2020-12" ? "items" : ctx.target === "openapi-3.0" ? "items" : "additionalItems";
    const prefixItems = def.items.map((x, i) => processSchema(x, ctx, {
        ...params,
        path: [...params.path, prefixPath, i],
    }));
    const rest = def.rest
        ? processSchema(def.rest, ctx, {
            ...params,
            path: [...params.path, restPath, ...(ctx.target === "openapi-3.0" ? [def.items.length] : [])],
        })
        : null;
    let minItems = def.items.length;
    while (minItems > 0) {
        const item = def.items[minItems - 1];
        const optional = ctx.io === "input" ? inputOptin(item) !== undefined : item._zod.optout === "optional";
        if (!optional)
            break;
        minItems--;
    }
    const maxItems = def.items.length;
    const isClosed = !def.rest;
    if (ctx.target === "draft-2020-12") {
        json.prefixItems = prefixItems;
        if (isClosed) {
            json.items = false;
        }
        else if (rest) {
            json.items = rest;
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    else if (ctx.target === "openapi-3.0") {
        json.items = {
            anyOf: prefixItems,
        };
        if (rest) {
            json.items.anyOf.push(rest);
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    else {
        json.items = prefixItems;
        if (isClosed) {
            json.additionalItems = false;
        }
        else if (rest) {
            json.additionalItems = rest;
        }
        if (minItems > 0)
            json.minItems = minItems;
        if (isClosed)
            json.maxItems = maxItems;
    }
    // explicit user-defined length checks take precedence
    const { minimum, maximum } = aggregateChecks(schema);
    if (typeof minimum === "number")
        json.minItems = minimum;
    if (typeof maximum === "number")
        json.maxItems = maximum;
};
/** JSON object keys are always strings, so a numeric record key schema is re-expressed over the
 * numeric-string form the record parser matches. Deferred to `finalize`, after the flatten: a key
 * behind a wrapper only carries its own `type` before then, and a union key only has its branches.
 *
 * A numeric bound cannot apply to a property name, so `minimum` and its siblings are dropped rather
 * than carried over: keeping them beside `type: "string"` reproduces the match-nothing schema this
 * exists to fix. A key that carries one therefore emits wider than the record parses — `z.record(z.number().min(5), V)`
 * accepts `"3"` — which is the deliberate trade, since throwing on it would reject an ordinary schema
 * outright. */
function stringifyKeyNames(bySchema, json, visited) {
    // an extracted key that rewrites cannot go on sharing its definition — the string form a key position needs is not the number form every other reference wants — so it inlines. One that does not rewrite keeps the `$ref`.
    if (json.$ref) {
        // a recursive key holds its own reference inside its definition, so a node already on the path is left alone rather than resolved again
        if (visited.has(json))
            return json;
        visited.add(json);
        const def = bySchema.get(json)?.def;
        if (!def)
            return json;
        const inlined = stringifyKeyNames(bySchema, def, visited);
        return inlined === def ? json : inlined;
    }
    for (const keyword of ["anyOf", "oneOf"]) {
        const branches = json[keyword];
        if (!Array.isArray(branches))
            continue;
        const mapped = branches.map((branch) => stringifyKeyNames(bySchema, branch, visited));
        // rebuilding regardless would detach a key that had nothing to re-express, dropping its `$ref` and leaking the internal `id`
        if (mapped.some((branch, i) => branch !== branches[i]))
            json = { ...json, [keyword]: mapped };
    }
    // a member that already admits a string leaves the key unconstrained, so the node's own type re-expresses only when every member is numeric
    const types = Array.isArray(json.type) ? json.type : [json.type];
    const numericType = !types.includes("string") && types.some((t) => t === "number" || t === "integer");
    // a heterogeneous key carries no type at all, so its numeric members are caught here instead
    const values = json.enum ?? (json.const !== undefined ? [json.const] : undefined);
    if (!numericType && !values?.some((v) => typeof v === "number"))
        return json;
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format, id, ...rest } = json;
    if (rest.enum)
        rest.enum = rest.enum.map((v) => (typeof v === "number" ? String(v) : v));
    else if (typeof rest.const === "number")
        rest.const = String(rest.const);
    // a heterogeneous key keeps its absent type: the stringified members already say what a key may be
    if (!numericType)
        return rest;
    rest.type = "string";
    if (!values)
        rest.pattern = (types.includes("number") ? number$1 : integer).source;
    return rest;
}
/** Every record of one conversion, so the carriers are found in a single pass rather than once per record. */
const pendingRecords = new WeakMap();
function rewriteKeyNames(ctx) {
    // an extracted key is resolved by the object `extractToDef` left in its place, so the map is built once rather than searched per reference. `_zod.toJSONSchema` can hand the same object to two schemas, so the first entry carrying a body wins, as a search would have found it.
    const bySchema = new Map();
    for (const entry of ctx.seen.values()) {
        if (entry.def && !bySchema.has(entry.schema))
            bySchema.set(entry.schema, entry);
    }
    const rewrites = new Map();
    for (const record of pendingRecords.get(ctx) ?? []) {
        const seen = ctx.seen.get(record);
        const names = (seen?.def ?? seen?.schema)?.propertyNames;
        if (!names || names === true || rewrites.has(names))
            continue;
        const rewritten = stringifyKeyNames(bySchema, names, new Set());
        if (rewritten !== names)
            rewrites.set(names, rewritten);
    }
    if (!rewrites.size)
        return;
    // the flatten has already copied each record's own properties onto every wrapper by reference, and an extracted body is another such copy, so every carrier holding a rewritten key is updated together
    for (const entry of ctx.seen.values()) {
        for (const carrier of [entry.schema, entry.def]) {
            const rewritten = carrier && rewrites.get(carrier.propertyNames);
            if (rewritten)
                carrier.propertyNames = rewritten;
        }
    }
}
const recordProcessor = (schema, ctx, _json, params) => {
    const json = _json;
    const def = schema._zod.def;
    json.type = "object";
    // For looseRecord with regex patterns, use patternProperties. This correctly represents "only validate keys matching the pattern" semantics and composes well with allOf (intersections)
    const keyType = def.keyType;
    const patterns = aggregateChecks(keyType).patterns;
    if (def.mode === "loose" && patterns && patterns.size > 0) {
        // Use patternProperties for looseRecord with regex patterns
        const valueSchema = processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "patternProperties", "*"],
        });
        json.patternProperties = {};
        for (const pattern of patterns) {
            assignProp(json.patternProperties, exactPattern(pattern).source, valueSchema);
        }
    }
    else {
        // Default behavior: use propertyNames + additionalProperties
        if (ctx.target === "draft-07" || ctx.target === "draft-2020-12") {
            json.propertyNames = processSchema(def.keyType, ctx, {
                ...params,
                path: [...params.path, "propertyNames"],
            });
            let pending = pendingRecords.get(ctx);
            if (!pending) {
                pending = [];
                pendingRecords.set(ctx, pending);
                ctx.deferred.push(() => rewriteKeyNames(ctx));
            }
            pending.push(schema);
        }
        json.additionalProperties = processSchema(def.valueType, ctx, {
            ...params,
            path: [...params.path, "additionalProperties"],
        });
    }
    // Add required for keys with discrete values (enum, literal, etc.)
    const keyValues = keyType._zod.values;
    // Every key shares one value schema, so an optional-in value makes the whole key set omittable on input. Output keeps them: the exhaustive branch assigns every key, even one whose value came back undefined.
    const omittableOnInput = ctx.io === "input" && inputOptin(def.valueType) !== undefined;
    if (keyValues && !def.partial && !omittableOnInput) {
        const validKeyValues = [...keyValues].filter((v) => typeof v === "string" || typeof v === "number");
        if (validKeyValues.length > 0) {
            json.required = validKeyValues.map(String);
        }
    }
};
const nullableProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    const inner = processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    if (ctx.target === "openapi-3.0") {
        seen.ref = def.innerType;
        json.nullable = true;
    }
    else {
        json.anyOf = [inner, { type: "null" }];
    }
};
const nonoptionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
/** Round-trips a default value through JSON so the emitted schema is guaranteed to be valid JSON.
 * A BigInt has no reliable encoding, so it goes through `unrepresentable` like any other
 * unrepresentable value. Returns a sentinel when the caller must not write a default of its own. */
const UNREPRESENTABLE_DEFAULT = Symbol();
function serializeDefaultValue(value, schema, ctx, json, params) {
    let unrepresentable = false;
    const serialized = JSON.stringify(value, (_, val) => {
        if (typeof val !== "bigint")
            return val;
        unrepresentable = true;
        return null;
    });
    if (!unrepresentable)
        return JSON.parse(serialized);
    handleUnrepresentable(schema, ctx, json, params, "BigInt defaults cannot be represented in JSON Schema");
    return UNREPRESENTABLE_DEFAULT;
}
const defaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json.default = value;
};
const prefaultProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    if (ctx.io !== "input")
        return;
    const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
    if (value !== UNREPRESENTABLE_DEFAULT)
        json._prefault = value;
};
const catchProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    let catchValue;
    try {
        catchValue = def.catchValue(undefined);
    }
    catch {
        handleUnrepresentable(schema, ctx, json, params, "Dynamic catch values are not supported in JSON Schema");
        return;
    }
    json.default = catchValue;
};
const pipeProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    const inIsTransform = def.in._zod.traits.has("$ZodTransform");
    const innerType = ctx.io === "input" ? (inIsTransform ? def.out : def.in) : def.out;
    processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
const readonlyProcessor = (schema, ctx, json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
    json.readOnly = true;
};
const promiseProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
const optionalProcessor = (schema, ctx, _json, params) => {
    const def = schema._zod.def;
    processSchema(def.innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = def.innerType;
};
const lazyProcessor = (schema, ctx, _json, params) => {
    const innerType = schema._zod.innerType;
    processSchema(innerType, ctx, params);
    const seen = ctx.seen.get(schema);
    seen.ref = innerType;
};
// ==================== ALL PROCESSORS ====================
const allProcessors = {
    string: stringProcessor,
    number: numberProcessor,
    boolean: booleanProcessor,
    bigint: bigintProcessor,
    symbol: symbolProcessor,
    null: nullProcessor,
    undefined: undefinedProcessor,
    void: voidProcessor,
    never: neverProcessor,
    any: anyProcessor,
    unknown: unknownProcessor,
    date: dateProcessor,
    enum: enumProcessor,
    literal: literalProcessor,
    nan: nanProcessor,
    template_literal: templateLiteralProcessor,
    file: fileProcessor,
    success: successProcessor,
    custom: customProcessor,
    function: functionProcessor,
    transform: transformProcessor,
    map: mapProcessor,
    set: setProcessor,
    array: arrayProcessor,
    object: objectProcessor,
    union: unionProcessor,
    intersection: intersectionProcessor,
    tuple: tupleProcessor,
    record: recordProcessor,
    nullable: nullableProcessor,
    nonoptional: nonoptionalProcessor,
    default: defaultProcessor,
    prefault: prefaultProcessor,
    catch: catchProcessor,
    pipe: pipeProcessor,
    readonly: readonlyProcessor,
    promise: promiseProcessor,
    optional: optionalProcessor,
    lazy: lazyProcessor,
};
function toJSONSchema(input, params) {
    if ("_idmap" in input) {
        // Registry case
        const registry = input;
        const ctx = initializeContext({ ...params, processors: allProcessors });
        const defs = {};
        // First pass: process all schemas to build the seen map
        for (const entry of registry._idmap.entries()) {
            const [_, schema] = entry;
            processSchema(schema, ctx);
        }
        const schemas = {};
        const external = {
            registry,
            uri: params?.uri,
            defs,
        };
        // Update the context with external configuration
        ctx.external = external;
        // Second pass: emit each schema
        for (const entry of registry._idmap.entries()) {
            const [key, schema] = entry;
            extractDefs(ctx, schema);
            assignProp(schemas, key, finalize(ctx, schema));
        }
        if (Object.keys(defs).length > 0) {
            const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
            schemas.__shared = {
                [defsSegment]: defs,
            };
        }
        return { schemas };
    }
    // Single schema case
    const ctx = initializeContext({ ...params, processors: allProcessors });
    processSchema(input, ctx);
    extractDefs(ctx, input);
    return finalize(ctx, input);
}

/* Prototypes that already carry the lazy helper methods. Seeded with the
 * intrinsics so that `init` on a foreign object — it accepts any object —
 * can never install an accessor onto a prototype we do not own. */
const _installedErrorProtos = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
/* Helper methods live as non-enumerable lazy getters on the shared
 * prototype instead of own properties on every instance. On first
 * access the getter allocates the per-instance closure and caches it
 * as a non-enumerable own property, so detached usage still works and
 * the allocation only happens for methods actually touched. */
function _lazyMethod(proto, key, make) {
    Object.defineProperty(proto, key, {
        configurable: true,
        enumerable: false,
        get() {
            const value = make(this);
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
            return value;
        },
        set(value) {
            Object.defineProperty(this, key, { value, configurable: true, writable: true });
        },
    });
}
const initializer = (inst, issues) => {
    $ZodError.init(inst, issues);
    inst.name = "ZodError";
    const proto = Object.getPrototypeOf(inst);
    if (_installedErrorProtos.has(proto))
        return;
    _installedErrorProtos.add(proto);
    _lazyMethod(proto, "format", (self) => (mapper) => formatError(self, mapper));
    _lazyMethod(proto, "flatten", (self) => (mapper) => flattenError(self, mapper));
    _lazyMethod(proto, "addIssue", (self) => (issue) => {
        self.issues.push(issue);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    _lazyMethod(proto, "addIssues", (self) => (issues) => {
        self.issues.push(...issues);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
    });
    Object.defineProperty(proto, "isEmpty", {
        configurable: true,
        enumerable: false,
        get() {
            return this.issues.length === 0;
        },
    });
};
const ZodRealError = /*@__PURE__*/ $constructor("ZodError", initializer, undefined, {
    Parent: Error,
});
// /** @deprecated Use `z.core.$ZodErrorMapCtx` instead. */
// export type ErrorMapCtx = core.$ZodErrorMapCtx;

const parse = /* @__PURE__ */ _parse(ZodRealError);
const parseAsync = /* @__PURE__ */ _parseAsync(ZodRealError);
const safeParse = /* @__PURE__ */ _safeParse(ZodRealError);
const safeParseAsync = /* @__PURE__ */ _safeParseAsync(ZodRealError);
// Codec functions
const encode = /* @__PURE__ */ _encode(ZodRealError);
const decode = /* @__PURE__ */ _decode(ZodRealError);
const encodeAsync = /* @__PURE__ */ _encodeAsync(ZodRealError);
const decodeAsync = /* @__PURE__ */ _decodeAsync(ZodRealError);
const safeEncode = /* @__PURE__ */ _safeEncode(ZodRealError);
const safeDecode = /* @__PURE__ */ _safeDecode(ZodRealError);
const safeEncodeAsync = /* @__PURE__ */ _safeEncodeAsync(ZodRealError);
const safeDecodeAsync = /* @__PURE__ */ _safeDecodeAsync(ZodRealError);

// Register English as the default locale on first ZodType construction. Hooked into the `ZodType` `$constructor` (rather than a top-level `config(en())` in `external.ts`) so bundlers honoring `sideEffects: false` can't tree-shake it out — see #5953, #5725. An explicit `z.config(z.locales.xx())` call wins regardless of order, since this only sets the default when none is present.
function _ensureDefaultLocale() {
    if (!globalConfig.localeError)
        config(en());
}
// the default memoizer is read by the core container init, which runs before `ZodType.init`, so each container calls this first
function _ensureDefaultMemoizer() {
    if (!globalConfig.memoizer)
        config({ memoizer: memoizer() });
}
const ZodType = /*@__PURE__*/ $constructor("ZodType", (inst, def) => {
    _ensureDefaultLocale();
    $ZodType.init(inst, def);
    inst.def = def;
    inst.type = def.type;
    return inst;
}, {
    check(...chks) {
        const def = this.def;
        return this.clone(mergeDefs(def, {
            checks: [
                ...(def.checks ?? []),
                ...chks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch),
            ],
        }), { parent: true });
    },
    with(...chks) {
        return this.check(...chks);
    },
    clone(def, params) {
        return clone(this, def, params);
    },
    brand() {
        return this;
    },
    register(reg, meta) {
        reg.add(this, meta);
        return this;
    },
    refine(check, params) {
        return this.check(refine(check, params));
    },
    superRefine(refinement, params) {
        return this.check(superRefine(refinement, params));
    },
    overwrite(fn) {
        return this.check(_overwrite(fn));
    },
    optional() {
        return optional(this);
    },
    exactOptional() {
        return exactOptional(this);
    },
    nullable() {
        return nullable(this);
    },
    nullish() {
        return optional(nullable(this));
    },
    nonoptional(params) {
        return nonoptional(this, params);
    },
    array() {
        return array(this);
    },
    or(arg) {
        return union([this, arg]);
    },
    and(arg) {
        return intersection(this, arg);
    },
    transform(tx) {
        return pipe(this, transform(tx));
    },
    default(d) {
        return _default(this, d);
    },
    prefault(d) {
        return prefault(this, d);
    },
    catch(params) {
        return _catch(this, params);
    },
    pipe(target) {
        return pipe(this, target);
    },
    readonly() {
        return readonly(this);
    },
    describe(description) {
        const cl = this.clone();
        globalRegistry.add(cl, { description });
        return cl;
    },
    meta(...args) {
        // overloaded: meta() returns the registered metadata, meta(data) returns a clone with `data` registered. The mapped type picks up the second overload, so we accept variadic any-args and return `any` to satisfy both at runtime.
        if (args.length === 0)
            return globalRegistry.get(this);
        const cl = this.clone();
        globalRegistry.add(cl, args[0]);
        return cl;
    },
    isOptional() {
        return this.safeParse(undefined).success;
    },
    isNullable() {
        return this.safeParse(null).success;
    },
    apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
    },
    // Overrides core's `~standard` to add `jsonSchema`. Must stay a prototype entry: redefining it per instance demotes instances to dictionary mode.
    get "~standard"() {
        return hide(this, "~standard", {
            ...standardProps(this),
            jsonSchema: {
                input: createStandardJSONSchemaMethod(this, "input"),
                output: createStandardJSONSchemaMethod(this, "output"),
            },
        });
    },
    set "~standard"(value) {
        own(this, "~standard", value);
    },
    parse: function _parse(data, params) {
        return parse(this, data, params, { callee: _parse });
    },
    parseAsync: async function _parseAsync(data, params) {
        return await parseAsync(this, data, params, { callee: _parseAsync });
    },
    safeParse(data, params) {
        return safeParse(this, data, params);
    },
    async safeParseAsync(data, params) {
        return safeParseAsync(this, data, params);
    },
    // `spa` is an alias: same function object as `safeParseAsync`, as before.
    get spa() {
        return this?.safeParseAsync;
    },
    set spa(value) {
        own(this, "spa", value);
    },
    validate(data, params) {
        return validate(this, data, params);
    },
    validateAsync(data, params) {
        return validateAsync$1(this, data, params);
    },
    encode: function _encode(data, params) {
        return encode(this, data, params, { callee: _encode });
    },
    decode: function _decode(data, params) {
        return decode(this, data, params, { callee: _decode });
    },
    encodeAsync: async function _encodeAsync(data, params) {
        return await encodeAsync(this, data, params, { callee: _encodeAsync });
    },
    decodeAsync: async function _decodeAsync(data, params) {
        return await decodeAsync(this, data, params, { callee: _decodeAsync });
    },
    safeEncode(data, params) {
        return safeEncode(this, data, params);
    },
    safeDecode(data, params) {
        return safeDecode(this, data, params);
    },
    async safeEncodeAsync(data, params) {
        return safeEncodeAsync(this, data, params);
    },
    async safeDecodeAsync(data, params) {
        return safeDecodeAsync(this, data, params);
    },
    toJSONSchema(params) {
        return createToJSONSchemaMethod(this, {})(params);
    },
    // Reads through to the registry on every access, so it must not cache.
    get description() {
        return globalRegistry.get(this)?.description;
    },
    // No setter: `schema._def = x` throws, as it did when `_def` was a non-writable own property.
    get _def() {
        return this._zod.def;
    },
});
/** @internal */
const _ZodString = /*@__PURE__*/ $constructor("_ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => stringProcessor(inst, ctx, json);
}, 
/*@__PURE__*/ derived({
    format: (inst) => aggregateChecks(inst).format ?? null,
    minLength: (inst) => aggregateChecks(inst).minimum ?? null,
    maxLength: (inst) => aggregateChecks(inst).maximum ?? null,
}, {
    regex(...args) {
        return this.check(_regex(...args));
    },
    includes(...args) {
        return this.check(_includes(...args));
    },
    startsWith(...args) {
        return this.check(_startsWith(...args));
    },
    endsWith(...args) {
        return this.check(_endsWith(...args));
    },
    min(...args) {
        return this.check(_minLength(...args));
    },
    max(...args) {
        return this.check(_maxLength(...args));
    },
    length(...args) {
        return this.check(_length(...args));
    },
    nonempty(...args) {
        return this.check(_minLength(1, ...args));
    },
    lowercase(params) {
        return this.check(_lowercase(params));
    },
    uppercase(params) {
        return this.check(_uppercase(params));
    },
    trim() {
        return this.check(_trim());
    },
    normalize(...args) {
        return this.check(_normalize(...args));
    },
    toLowerCase() {
        return this.check(_toLowerCase());
    },
    toUpperCase() {
        return this.check(_toUpperCase());
    },
    slugify() {
        return this.check(_slugify());
    },
}));
const ZodString = /*@__PURE__*/ $constructor("ZodString", (inst, def) => {
    $ZodString.init(inst, def);
    _ZodString.init(inst, def);
}, {
    email(params) {
        return this.check(_email(ZodEmail, params));
    },
    url(params) {
        return this.check(_url(ZodURL, params));
    },
    jwt(params) {
        return this.check(_jwt(ZodJWT, params));
    },
    emoji(params) {
        return this.check(_emoji(ZodEmoji, params));
    },
    guid(params) {
        return this.check(_guid(ZodGUID, params));
    },
    uuid(params) {
        return this.check(_uuid(ZodUUID, params));
    },
    uuidv4(params) {
        return this.check(_uuidv4(ZodUUID, params));
    },
    uuidv6(params) {
        return this.check(_uuidv6(ZodUUID, params));
    },
    uuidv7(params) {
        return this.check(_uuidv7(ZodUUID, params));
    },
    nanoid(params) {
        return this.check(_nanoid(ZodNanoID, params));
    },
    cuid(params) {
        return this.check(_cuid(ZodCUID, params));
    },
    cuid2(params) {
        return this.check(_cuid2(ZodCUID2, params));
    },
    ulid(params) {
        return this.check(_ulid(ZodULID, params));
    },
    base64(params) {
        return this.check(_base64(ZodBase64, params));
    },
    base64url(params) {
        return this.check(_base64url(ZodBase64URL, params));
    },
    xid(params) {
        return this.check(_xid(ZodXID, params));
    },
    ksuid(params) {
        return this.check(_ksuid(ZodKSUID, params));
    },
    ipv4(params) {
        return this.check(_ipv4(ZodIPv4, params));
    },
    ipv6(params) {
        return this.check(_ipv6(ZodIPv6, params));
    },
    cidrv4(params) {
        return this.check(_cidrv4(ZodCIDRv4, params));
    },
    cidrv6(params) {
        return this.check(_cidrv6(ZodCIDRv6, params));
    },
    e164(params) {
        return this.check(_e164(ZodE164, params));
    },
    datetime(params) {
        return this.check(_isoDateTime(ZodISODateTime, params));
    },
    date(params) {
        return this.check(_isoDate(ZodISODate, params));
    },
    time(params) {
        return this.check(_isoTime(ZodISOTime, params));
    },
    duration(params) {
        return this.check(_isoDuration(ZodISODuration, params));
    },
});
function string$1(params) {
    return _string(ZodString, params);
}
const ZodStringFormat = /*@__PURE__*/ $constructor("ZodStringFormat", (inst, def) => {
    $ZodStringFormat.init(inst, def);
    _ZodString.init(inst, def);
});
const ZodISODateTime = /*@__PURE__*/ $constructor("ZodISODateTime", (inst, def) => {
    $ZodISODateTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodISODate = /*@__PURE__*/ $constructor("ZodISODate", (inst, def) => {
    $ZodISODate.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodISOTime = /*@__PURE__*/ $constructor("ZodISOTime", (inst, def) => {
    $ZodISOTime.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodISODuration = /*@__PURE__*/ $constructor("ZodISODuration", (inst, def) => {
    $ZodISODuration.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodEmail = /*@__PURE__*/ $constructor("ZodEmail", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmail.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodGUID = /*@__PURE__*/ $constructor("ZodGUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodGUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodUUID = /*@__PURE__*/ $constructor("ZodUUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodUUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodURL = /*@__PURE__*/ $constructor("ZodURL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodURL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodEmoji = /*@__PURE__*/ $constructor("ZodEmoji", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodEmoji.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodNanoID = /*@__PURE__*/ $constructor("ZodNanoID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodNanoID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
/**
 * @deprecated CUID v1 is deprecated by its authors due to information leakage
 * (timestamps embedded in the id). Use {@link ZodCUID2} instead.
 * See https://github.com/paralleldrive/cuid.
 */
const ZodCUID = /*@__PURE__*/ $constructor("ZodCUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodCUID2 = /*@__PURE__*/ $constructor("ZodCUID2", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodCUID2.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodULID = /*@__PURE__*/ $constructor("ZodULID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodULID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodXID = /*@__PURE__*/ $constructor("ZodXID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodXID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodKSUID = /*@__PURE__*/ $constructor("ZodKSUID", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodKSUID.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodIPv4 = /*@__PURE__*/ $constructor("ZodIPv4", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodIPv6 = /*@__PURE__*/ $constructor("ZodIPv6", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodIPv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodCIDRv4 = /*@__PURE__*/ $constructor("ZodCIDRv4", (inst, def) => {
    $ZodCIDRv4.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodCIDRv6 = /*@__PURE__*/ $constructor("ZodCIDRv6", (inst, def) => {
    $ZodCIDRv6.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodBase64 = /*@__PURE__*/ $constructor("ZodBase64", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodBase64URL = /*@__PURE__*/ $constructor("ZodBase64URL", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodBase64URL.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodE164 = /*@__PURE__*/ $constructor("ZodE164", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodE164.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodJWT = /*@__PURE__*/ $constructor("ZodJWT", (inst, def) => {
    // ZodStringFormat.init(inst, def);
    $ZodJWT.init(inst, def);
    ZodStringFormat.init(inst, def);
});
const ZodNumber = /*@__PURE__*/ $constructor("ZodNumber", (inst, def) => {
    $ZodNumber.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => numberProcessor(inst, ctx, json, params);
    inst.isFinite = true;
}, 
/*@__PURE__*/ derived({
    minValue: (inst) => {
        const { minimum, exclusiveMinimum } = aggregateChecks(inst);
        return Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
    },
    maxValue: (inst) => {
        const { maximum, exclusiveMaximum } = aggregateChecks(inst);
        return Math.min(maximum ?? Number.POSITIVE_INFINITY, exclusiveMaximum ?? Number.POSITIVE_INFINITY);
    },
    isInt: (inst) => {
        const { isInt, multipleOf } = aggregateChecks(inst);
        return !!isInt || !!multipleOf?.some(Number.isSafeInteger);
    },
    format: (inst) => aggregateChecks(inst).format ?? null,
}, {
    gt(value, params) {
        return this.check(_gt(value, params));
    },
    gte(value, params) {
        return this.check(_gte(value, params));
    },
    min(value, params) {
        return this.check(_gte(value, params));
    },
    lt(value, params) {
        return this.check(_lt(value, params));
    },
    lte(value, params) {
        return this.check(_lte(value, params));
    },
    max(value, params) {
        return this.check(_lte(value, params));
    },
    int(params) {
        return this.check(int$2(params));
    },
    safe(params) {
        return this.check(int$2(params));
    },
    positive(params) {
        return this.check(_gt(0, params));
    },
    nonnegative(params) {
        return this.check(_gte(0, params));
    },
    negative(params) {
        return this.check(_lt(0, params));
    },
    nonpositive(params) {
        return this.check(_lte(0, params));
    },
    multipleOf(value, params) {
        return this.check(_multipleOf(value, params));
    },
    step(value, params) {
        return this.check(_multipleOf(value, params));
    },
    finite() {
        return this;
    },
}));
function number(params) {
    return _number(ZodNumber, params);
}
const ZodNumberFormat = /*@__PURE__*/ $constructor("ZodNumberFormat", (inst, def) => {
    $ZodNumberFormat.init(inst, def);
    ZodNumber.init(inst, def);
});
function int$2(params) {
    return _int(ZodNumberFormat, params);
}
const ZodBoolean = /*@__PURE__*/ $constructor("ZodBoolean", (inst, def) => {
    $ZodBoolean.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => booleanProcessor(inst, ctx, json);
});
function boolean(params) {
    return _boolean(ZodBoolean, params);
}
const ZodUnknown = /*@__PURE__*/ $constructor("ZodUnknown", (inst, def) => {
    $ZodUnknown.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unknownProcessor();
});
function unknown() {
    return _unknown(ZodUnknown);
}
const ZodNever = /*@__PURE__*/ $constructor("ZodNever", (inst, def) => {
    $ZodNever.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => neverProcessor(inst, ctx, json);
});
function never(params) {
    return _never(ZodNever, params);
}
const ZodArray = /*@__PURE__*/ $constructor("ZodArray", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodArray.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => arrayProcessor(inst, ctx, json, params);
    inst.element = def.element;
}, {
    min(n, params) {
        return this.check(_minLength(n, params));
    },
    nonempty(params) {
        return this.check(_minLength(1, params));
    },
    max(n, params) {
        return this.check(_maxLength(n, params));
    },
    length(n, params) {
        return this.check(_length(n, params));
    },
    unwrap() {
        return this.element;
    },
});
function array(element, params) {
    return _array(ZodArray, element, params);
}
const ZodObject = /*@__PURE__*/ $constructor("ZodObject", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodObjectJIT.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => objectProcessor(inst, ctx, json, params);
    installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
}, {
    keyof() {
        return _enum(Object.keys(this._zod.def.shape));
    },
    catchall(catchall) {
        // `mergeDefs` rather than a spread: spreading reads `shape`, and resolving it can mint a whole fresh subtree
        return this.clone(mergeDefs(this._zod.def, { catchall: catchall }));
    },
    passthrough() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    loose() {
        return this.clone(mergeDefs(this._zod.def, { catchall: unknown() }));
    },
    strict() {
        return this.clone(mergeDefs(this._zod.def, { catchall: never() }));
    },
    strip() {
        return this.clone(mergeDefs(this._zod.def, { catchall: undefined }));
    },
    extend(incoming) {
        return extend(this, incoming);
    },
    safeExtend(incoming) {
        return safeExtend(this, incoming);
    },
    merge(other) {
        return merge$2(this, other);
    },
    pick(mask) {
        return pick(this, mask);
    },
    omit(mask) {
        return omit(this, mask);
    },
    partial(...args) {
        return partial(ZodOptional, this, args[0]);
    },
    exactPartial(...args) {
        return partial(ZodExactOptional, this, args[0], "exactPartial");
    },
    required(...args) {
        return required(ZodNonOptional, this, args[0]);
    },
});
// strictObject
function strictObject(shape, params) {
    return new ZodObject({
        type: "object",
        shape,
        catchall: never(),
        ...normalizeParams(params),
    });
}
const ZodUnion = /*@__PURE__*/ $constructor("ZodUnion", (inst, def) => {
    $ZodUnion.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => unionProcessor(inst, ctx, json, params);
    inst.options = def.options;
});
function union(options, params) {
    return new ZodUnion({
        type: "union",
        options: options,
        ...normalizeParams(params),
    });
}
const ZodIntersection = /*@__PURE__*/ $constructor("ZodIntersection", (inst, def) => {
    $ZodIntersection.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => intersectionProcessor(inst, ctx, json, params);
});
function intersection(left, right) {
    return new ZodIntersection({
        type: "intersection",
        left: left,
        right: right,
    });
}
const ZodRecord = /*@__PURE__*/ $constructor("ZodRecord", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodRecord.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => recordProcessor(inst, ctx, json, params);
    inst.keyType = def.keyType;
    inst.valueType = def.valueType;
});
function record(keyType, valueType, params) {
    // v3-compat: z.record(valueType, params?) — defaults keyType to z.string()
    if (!valueType || !valueType._zod) {
        return new ZodRecord({
            type: "record",
            keyType: string$1(),
            valueType: keyType,
            ...normalizeParams(valueType),
        });
    }
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...normalizeParams(params),
    });
}
// type alksjf = core.output<core.$ZodRecordKey>;
function partialRecord(keyType, valueType, params) {
    return new ZodRecord({
        type: "record",
        keyType,
        valueType: valueType,
        ...normalizeParams(params),
        partial: true,
    });
}
const ZodEnum = /*@__PURE__*/ $constructor("ZodEnum", (inst, def) => {
    $ZodEnum.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => enumProcessor(inst, ctx, json);
    inst.enum = def.entries;
    // reuse the parsed value set so a numeric TS enum's reverse-mapping keys stay out
    inst.options = [...inst._zod.values];
    const keys = new Set(Object.keys(def.entries));
    inst.extract = (values, params) => {
        const newEntries = {};
        for (const value of values) {
            if (keys.has(value)) {
                newEntries[value] = def.entries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
    inst.exclude = (values, params) => {
        const newEntries = { ...def.entries };
        for (const value of values) {
            if (keys.has(value)) {
                delete newEntries[value];
            }
            else
                throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
            ...def,
            checks: [],
            ...normalizeParams(params),
            entries: newEntries,
        });
    };
});
function _enum(values, params) {
    const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
    return new ZodEnum({
        type: "enum",
        entries,
        ...normalizeParams(params),
    });
}
const ZodTransform = /*@__PURE__*/ $constructor("ZodTransform", (inst, def) => {
    _ensureDefaultMemoizer();
    $ZodTransform.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => transformProcessor(inst, ctx, json, params);
    inst._zod.parse = (payload, _ctx) => {
        if (_ctx.direction === "backward") {
            throw new $ZodEncodeError(inst.constructor.name);
        }
        payload.addIssue = (issue$1) => {
            if (typeof issue$1 === "string") {
                payload.issues.push(issue(issue$1, payload.value, def));
            }
            else {
                // for Zod 3 backwards compatibility
                const _issue = issue$1;
                if (_issue.fatal)
                    _issue.continue = false;
                _issue.code ?? (_issue.code = "custom");
                if (!("input" in _issue))
                    _issue.input = payload.value;
                _issue.inst ?? (_issue.inst = inst);
                // _issue.continue ??= true;
                payload.issues.push(issue(_issue));
            }
        };
        const output = def.transform(payload.value, payload);
        if (output instanceof Promise) {
            return output.then((output) => {
                payload.value = output;
                return payload;
            });
        }
        payload.value = output;
        return payload;
    };
});
function transform(fn) {
    return new ZodTransform({
        type: "transform",
        transform: fn,
    });
}
const ZodOptional = /*@__PURE__*/ $constructor("ZodOptional", (inst, def) => {
    $ZodOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function optional(innerType) {
    return new ZodOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodExactOptional = /*@__PURE__*/ $constructor("ZodExactOptional", (inst, def) => {
    $ZodExactOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function exactOptional(innerType) {
    return new ZodExactOptional({
        type: "optional",
        innerType: innerType,
    });
}
const ZodNullable = /*@__PURE__*/ $constructor("ZodNullable", (inst, def) => {
    $ZodNullable.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nullableProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nullable(innerType) {
    return new ZodNullable({
        type: "nullable",
        innerType: innerType,
    });
}
const ZodDefault = /*@__PURE__*/ $constructor("ZodDefault", (inst, def) => {
    $ZodDefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => defaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeDefault = inst.unwrap;
});
function _default(innerType, defaultValue) {
    return new ZodDefault({
        type: "default",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodPrefault = /*@__PURE__*/ $constructor("ZodPrefault", (inst, def) => {
    $ZodPrefault.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => prefaultProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function prefault(innerType, defaultValue) {
    return new ZodPrefault({
        type: "prefault",
        innerType: innerType,
        get defaultValue() {
            return typeof defaultValue === "function" ? defaultValue() : shallowClone(defaultValue);
        },
    });
}
const ZodNonOptional = /*@__PURE__*/ $constructor("ZodNonOptional", (inst, def) => {
    $ZodNonOptional.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => nonoptionalProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function nonoptional(innerType, params) {
    return new ZodNonOptional({
        type: "nonoptional",
        innerType: innerType,
        ...normalizeParams(params),
    });
}
const ZodCatch = /*@__PURE__*/ $constructor("ZodCatch", (inst, def) => {
    $ZodCatch.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => catchProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
    inst.removeCatch = inst.unwrap;
});
function _catch(innerType, catchValue) {
    return new ZodCatch({
        type: "catch",
        innerType: innerType,
        catchValue: (typeof catchValue === "function" ? catchValue : constantCatch(catchValue)),
    });
}
const ZodPipe = /*@__PURE__*/ $constructor("ZodPipe", (inst, def) => {
    $ZodPipe.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => pipeProcessor(inst, ctx, json, params);
    inst.in = def.in;
    inst.out = def.out;
});
function pipe(in_, out) {
    return new ZodPipe({
        type: "pipe",
        in: in_,
        out: out,
        // ...util.normalizeParams(params),
    });
}
const ZodReadonly = /*@__PURE__*/ $constructor("ZodReadonly", (inst, def) => {
    $ZodReadonly.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => readonlyProcessor(inst, ctx, json, params);
    inst.unwrap = () => inst._zod.def.innerType;
});
function readonly(innerType) {
    return new ZodReadonly({
        type: "readonly",
        innerType: innerType,
    });
}
const ZodCustom = /*@__PURE__*/ $constructor("ZodCustom", (inst, def) => {
    $ZodCustom.init(inst, def);
    ZodType.init(inst, def);
    inst._zod.processJSONSchema = (ctx, json, params) => customProcessor(inst, ctx, json, params);
});
function refine(fn, _params = {}) {
    return _refine(ZodCustom, fn, _params);
}
// superRefine
function superRefine(fn, params) {
    return _superRefine(fn, params);
}

// proctor.yml: the zod schema is the single source of truth. The JSON Schema in schema/ is generated
// from it (npm run schema) and a test keeps the two in sync.
/** A duration written as "30s"/"10m"/"1h30m" (or a number of seconds), parsed into milliseconds. */
function duration(opts = {}) {
    return union([string$1(), number()])
        .transform((value, ctx) => {
        const ms = parseDuration(value);
        if (typeof ms === 'string') {
            ctx.addIssue({ code: 'custom', message: ms });
            return NEVER;
        }
        if (opts.min !== undefined && ms < opts.min) {
            ctx.addIssue({ code: 'custom', message: `must be at least ${opts.min}ms, got ${value}` });
            return NEVER;
        }
        if (opts.max !== undefined && ms > opts.max) {
            ctx.addIssue({ code: 'custom', message: `must be at most ${opts.max / 1000}s, got ${value}` });
            return NEVER;
        }
        return ms;
    })
        .meta({ description: 'A duration: 500ms, 30s, 10m, 1h, 1h30m (a bare number is seconds)' });
}
/** A size written as "5MiB"/"512KiB"/"1GB" (or a number of bytes), parsed into bytes. */
function size() {
    return union([string$1(), number()])
        .transform((value, ctx) => {
        const bytes = parseSize(value);
        if (typeof bytes === 'string') {
            ctx.addIssue({ code: 'custom', message: bytes });
            return NEVER;
        }
        return bytes;
    })
        .meta({ description: 'A size: 512KiB, 5MiB, 1GB (a bare number is bytes)' });
}
const argv = array(string$1().min(1)).min(1);
/** A command: an argv array (run directly) or a string (run by /bin/sh -c). */
const commandField = union([argv, string$1().min(1)]);
const severity = _enum(['info', 'warning', 'error', 'critical']);
const respond = strictObject({
    send: string$1().optional().meta({ description: 'Text or keys typed into the agent (\\r for Enter)' }),
    deny: boolean()
        .optional()
        .meta({ description: 'Answer the prompt with the deny text (n\\r by default)' }),
    deny_text: string$1().optional(),
    stop: boolean().optional().meta({ description: 'Stop the agent (SIGTERM to its group)' }),
    notify: boolean().optional().meta({ description: 'Record and report only' }),
    delay: duration({ max: 60_000 }).optional().meta({
        description: 'Wait this long after the prompt appears before answering (it must still be on screen)',
    }),
    retry_after: duration({ min: 100, max: 10 * 60_000 })
        .optional()
        .meta({
        description: 'Answer again when the prompt is still on screen this long after the last answer (screen only)',
    }),
    max_attempts: number()
        .int()
        .min(1)
        .max(20)
        .optional()
        .meta({ description: 'Answers per appearance, the first included (default 3 with retry_after, else 1)' }),
});
const detectRule = strictObject({
    name: string$1().min(1),
    match: string$1()
        .min(1)
        .meta({ description: 'A JavaScript regular expression matched against the rendered output' }),
    flags: string$1()
        .regex(/^[imsu]*$/)
        .optional(),
    kind: string$1().min(1).default('approval_request').meta({
        description: 'approval_request, error, completion, idle (the agent waits at its input prompt), working (the agent is busy: gates completion, never reported), or a custom kind',
    }),
    respond: respond.default({ notify: true }),
    max_fires: number()
        .int()
        .min(1)
        .optional()
        .meta({ description: 'Stop responding after this many appearances' }),
});
const hookEntry = strictObject({
    name: string$1().min(1).optional(),
    command: commandField,
    timeout: duration().default(60_000),
    async: boolean().default(false),
});
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
const agentPresetNames = ['claude-code', 'codex', 'gemini'];
const typingDefaults = {
    paste: 'auto',
    submit_delay: 50,
    confirm_timeout: 5_000,
    submit_attempts: 3,
};
const typing = strictObject({
    paste: _enum(['auto', 'always', 'never']).default('auto').meta({
        description: 'Wrap typed text in bracketed paste: auto = when the agent enabled it (ESC[?2004h), always, or never',
    }),
    submit_delay: duration({ max: 2_000 }).default(typingDefaults.submit_delay).meta({
        description: 'Pause between the typed text and the separate Enter that submits it',
    }),
    confirm_timeout: duration({ min: 100, max: 60_000 }).default(typingDefaults.confirm_timeout).meta({
        description: 'How long to wait for the agent to react to Enter before pressing it again',
    }),
    submit_attempts: number().int().min(1).max(10).default(typingDefaults.submit_attempts),
})
    .default({ ...typingDefaults });
const configSchema = strictObject({
    agent: strictObject({
        preset: _enum(agentPresetNames).optional().meta({
            description: 'Everything a session with this agent CLI needs (detectors, typing, Stop-hook wiring), applied beneath this file',
        }),
        command: argv.optional().meta({ description: 'The agent command as an argv array' }),
        shell: string$1().min(1).optional().meta({ description: 'The agent command as a shell string' }),
        pty: boolean().default(true),
        continue: argv.optional().meta({
            description: 'Command run when stop hooks block after the agent exited; {reason} is one argv element',
        }),
        adapter: _enum(['generic', 'claude', 'codex', 'gemini']).default('generic'),
        env: record(string$1(), string$1()).default({}),
        env_passthrough: array(string$1().regex(/^[^=\s]+$/, 'an environment variable name'))
            .default([])
            .meta({
            description: 'Variables proctor otherwise withholds from the agent and hooks (INPUT_*, ACTIONS_RUNTIME_TOKEN, GITHUB_TOKEN...) that you hand them anyway',
        }),
        cwd: string$1().optional(),
        cols: number().int().min(20).max(1000).default(120),
        rows: number().int().min(5).max(500).default(40),
        typing: typing.meta({
            description: "How proctor types the stop hooks' reasons into an interactive agent",
        }),
        quit: string$1().min(1).optional().meta({
            description: 'Keys that make an interactive agent exit by itself once the session is decided (e.g. "/exit\\r"; a final \\r is sent as its own Enter); proctor stops it (SIGTERM, grace, SIGKILL) if it is still running after timeouts.grace',
        }),
    })
        .default({
        pty: true,
        adapter: 'generic',
        env: {},
        env_passthrough: [],
        cols: 120,
        rows: 40,
        typing: { ...typingDefaults },
    }),
    timeouts: strictObject({
        total: duration({ min: 1 }).default(30 * 60_000),
        idle: duration({ min: 1 }).default(10 * 60_000),
        grace: duration({ max: 60_000 }).default(5_000),
    })
        .default({ total: 30 * 60_000, idle: 10 * 60_000, grace: 5_000 }),
    output: strictObject({
        transcript_max: size().default(64 * 1024 ** 2),
        buffer: size().default(1024 ** 2),
        passthrough: boolean().default(true),
    })
        .default({ transcript_max: 64 * 1024 ** 2, buffer: 1024 ** 2, passthrough: true }),
    detect: array(detectRule).default([]),
    detect_presets: array(_enum(['prompts'])).default([]),
    checkpoints: strictObject({
        enabled: boolean().default(true),
        branch: string$1().min(1).default('proctor/{session}'),
        interval: duration().default(30_000),
        max_changes: number().int().min(1).default(50),
        min_interval: duration().default(5_000),
        push: _enum(['auto', 'always', 'never']).default('auto'),
        remote: string$1().min(1).default('origin'),
        max_file_size: size().default(5 * 1024 ** 2),
        pause_agent: boolean().default(true),
        on_events: array(string$1()).default(['completion']),
        push_on_pre_push: boolean().default(false),
        max_failures: number().int().min(0).default(3).meta({
            description: 'Consecutive failed checkpoints tolerated; one more stops the agent and ends the session errored (exit 1)',
        }),
    })
        .default({
        enabled: true,
        branch: 'proctor/{session}',
        interval: 30_000,
        max_changes: 50,
        min_interval: 5_000,
        push: 'auto',
        remote: 'origin',
        max_file_size: 5 * 1024 ** 2,
        pause_agent: true,
        on_events: ['completion'],
        push_on_pre_push: false,
        max_failures: 3,
    }),
    policy: strictObject({
        allowed_areas: array(string$1()).default([]),
        forbidden_areas: array(string$1()).default([]),
        protected_areas: array(string$1()).default([]),
        violation_severity: severity.default('warning'),
        severities: record(string$1(), severity).default({}).meta({
            description: 'Severity per constraint (forbidden_area, protected_area, outside_allowed, symlink_escape, new_executable, file_size, diff_size, unsafe_path, git_tamper)',
        }),
        revert_on_violation: boolean().default(false),
        max_file_size: size().optional(),
        max_diff_size: size().optional(),
        allow_new_executables: boolean().default(true),
        git_tamper: _enum(['undo', 'report', 'off']).default('undo').meta({
            description: "Changes to the repository's git config, hooks, info/attributes or info/exclude: undo them (critical git_tamper violation), only report them, or do not check",
        }),
    })
        .default({
        allowed_areas: [],
        forbidden_areas: [],
        protected_areas: [],
        violation_severity: 'warning',
        severities: {},
        revert_on_violation: false,
        allow_new_executables: true,
        git_tamper: 'undo',
    }),
    stop_hooks: array(strictObject({
        name: string$1().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" or "-"'),
        command: commandField,
        timeout: duration().default(10 * 60_000),
        on_error: _enum(['allow', 'block']).default('block').meta({
            description: 'block: a failing hook (non-zero exit) or one that cannot run blocks; allow: those are reported, never block',
        }),
        advisory: boolean()
            .default(false)
            .meta({ description: 'Report this hook, never block on it (its check run is neutral)' }),
    }))
        .default([]),
    max_stop_rounds: number().int().min(1).max(20).default(3),
    hooks: partialRecord(_enum(lifecycleEvents), array(hookEntry)).default({}),
    hooks_async_pool_size: number().int().default(10),
    hooks_async_shutdown_grace: duration({ max: 60_000 }).default(5_000),
    hooks_async_drain_timeout: duration({ max: 10 * 60_000 })
        .default(30_000)
        .meta({
        description: 'How long async hooks still running at the end may take before they are stopped',
    }),
    batch: strictObject({
        concurrency: number().int().min(1).max(64).default(4),
        keep_worktrees: boolean().default(false),
        tasks: array(strictObject({
            name: string$1().min(1),
            command: argv.optional(),
            shell: string$1().min(1).optional(),
            role: string$1().optional(),
            timeout: duration().optional(),
        }))
            .default([]),
    })
        .default({ concurrency: 4, keep_worktrees: false, tasks: [] }),
    github: strictObject({
        comment: _enum(['sticky', 'new', 'off']).default('sticky'),
        checks: boolean().default(true),
        key: string$1().min(1).default('{workflow}/{job}'),
        fail_on: _enum(['block', 'violation-error', 'never']).default('block'),
    })
        .default({ comment: 'sticky', checks: true, key: '{workflow}/{job}', fail_on: 'block' }),
});

var dist = {};

var composer = {};

var directives = {};

var identity = {};

var hasRequiredIdentity;

function requireIdentity () {
	if (hasRequiredIdentity) return identity;
	hasRequiredIdentity = 1;

	const ALIAS = Symbol.for('yaml.alias');
	const DOC = Symbol.for('yaml.document');
	const MAP = Symbol.for('yaml.map');
	const PAIR = Symbol.for('yaml.pair');
	const SCALAR = Symbol.for('yaml.scalar');
	const SEQ = Symbol.for('yaml.seq');
	const NODE_TYPE = Symbol.for('yaml.node.type');
	const isAlias = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === ALIAS;
	const isDocument = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === DOC;
	const isMap = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === MAP;
	const isPair = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === PAIR;
	const isScalar = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SCALAR;
	const isSeq = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SEQ;
	function isCollection(node) {
	    if (node && typeof node === 'object')
	        switch (node[NODE_TYPE]) {
	            case MAP:
	            case SEQ:
	                return true;
	        }
	    return false;
	}
	function isNode(node) {
	    if (node && typeof node === 'object')
	        switch (node[NODE_TYPE]) {
	            case ALIAS:
	            case MAP:
	            case SCALAR:
	            case SEQ:
	                return true;
	        }
	    return false;
	}
	const hasAnchor = (node) => (isScalar(node) || isCollection(node)) && !!node.anchor;

	identity.ALIAS = ALIAS;
	identity.DOC = DOC;
	identity.MAP = MAP;
	identity.NODE_TYPE = NODE_TYPE;
	identity.PAIR = PAIR;
	identity.SCALAR = SCALAR;
	identity.SEQ = SEQ;
	identity.hasAnchor = hasAnchor;
	identity.isAlias = isAlias;
	identity.isCollection = isCollection;
	identity.isDocument = isDocument;
	identity.isMap = isMap;
	identity.isNode = isNode;
	identity.isPair = isPair;
	identity.isScalar = isScalar;
	identity.isSeq = isSeq;
	return identity;
}

var visit = {};

var hasRequiredVisit;

function requireVisit () {
	if (hasRequiredVisit) return visit;
	hasRequiredVisit = 1;

	var identity = requireIdentity();

	const BREAK = Symbol('break visit');
	const SKIP = Symbol('skip children');
	const REMOVE = Symbol('remove node');
	/**
	 * Apply a visitor to an AST node or document.
	 *
	 * Walks through the tree (depth-first) starting from `node`, calling a
	 * `visitor` function with three arguments:
	 *   - `key`: For sequence values and map `Pair`, the node's index in the
	 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
	 *     `null` for the root node.
	 *   - `node`: The current node.
	 *   - `path`: The ancestry of the current node.
	 *
	 * The return value of the visitor may be used to control the traversal:
	 *   - `undefined` (default): Do nothing and continue
	 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
	 *     sibling
	 *   - `visit.BREAK`: Terminate traversal completely
	 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
	 *   - `Node`: Replace the current node, then continue by visiting it
	 *   - `number`: While iterating the items of a sequence or map, set the index
	 *     of the next step. This is useful especially if the index of the current
	 *     node has changed.
	 *
	 * If `visitor` is a single function, it will be called with all values
	 * encountered in the tree, including e.g. `null` values. Alternatively,
	 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
	 * `Alias` and `Scalar` node. To define the same visitor function for more than
	 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
	 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
	 * specific defined one will be used for each node.
	 */
	function visit$1(node, visitor) {
	    const visitor_ = initVisitor(visitor);
	    if (identity.isDocument(node)) {
	        const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
	        if (cd === REMOVE)
	            node.contents = null;
	    }
	    else
	        visit_(null, node, visitor_, Object.freeze([]));
	}
	// Without the `as symbol` casts, TS declares these in the `visit`
	// namespace using `var`, but then complains about that because
	// `unique symbol` must be `const`.
	/** Terminate visit traversal completely */
	visit$1.BREAK = BREAK;
	/** Do not visit the children of the current node */
	visit$1.SKIP = SKIP;
	/** Remove the current node */
	visit$1.REMOVE = REMOVE;
	function visit_(key, node, visitor, path) {
	    const ctrl = callVisitor(key, node, visitor, path);
	    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
	        replaceNode(key, path, ctrl);
	        return visit_(key, ctrl, visitor, path);
	    }
	    if (typeof ctrl !== 'symbol') {
	        if (identity.isCollection(node)) {
	            path = Object.freeze(path.concat(node));
	            for (let i = 0; i < node.items.length; ++i) {
	                const ci = visit_(i, node.items[i], visitor, path);
	                if (typeof ci === 'number')
	                    i = ci - 1;
	                else if (ci === BREAK)
	                    return BREAK;
	                else if (ci === REMOVE) {
	                    node.items.splice(i, 1);
	                    i -= 1;
	                }
	            }
	        }
	        else if (identity.isPair(node)) {
	            path = Object.freeze(path.concat(node));
	            const ck = visit_('key', node.key, visitor, path);
	            if (ck === BREAK)
	                return BREAK;
	            else if (ck === REMOVE)
	                node.key = null;
	            const cv = visit_('value', node.value, visitor, path);
	            if (cv === BREAK)
	                return BREAK;
	            else if (cv === REMOVE)
	                node.value = null;
	        }
	    }
	    return ctrl;
	}
	/**
	 * Apply an async visitor to an AST node or document.
	 *
	 * Walks through the tree (depth-first) starting from `node`, calling a
	 * `visitor` function with three arguments:
	 *   - `key`: For sequence values and map `Pair`, the node's index in the
	 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
	 *     `null` for the root node.
	 *   - `node`: The current node.
	 *   - `path`: The ancestry of the current node.
	 *
	 * The return value of the visitor may be used to control the traversal:
	 *   - `Promise`: Must resolve to one of the following values
	 *   - `undefined` (default): Do nothing and continue
	 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
	 *     sibling
	 *   - `visit.BREAK`: Terminate traversal completely
	 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
	 *   - `Node`: Replace the current node, then continue by visiting it
	 *   - `number`: While iterating the items of a sequence or map, set the index
	 *     of the next step. This is useful especially if the index of the current
	 *     node has changed.
	 *
	 * If `visitor` is a single function, it will be called with all values
	 * encountered in the tree, including e.g. `null` values. Alternatively,
	 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
	 * `Alias` and `Scalar` node. To define the same visitor function for more than
	 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
	 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
	 * specific defined one will be used for each node.
	 */
	async function visitAsync(node, visitor) {
	    const visitor_ = initVisitor(visitor);
	    if (identity.isDocument(node)) {
	        const cd = await visitAsync_(null, node.contents, visitor_, Object.freeze([node]));
	        if (cd === REMOVE)
	            node.contents = null;
	    }
	    else
	        await visitAsync_(null, node, visitor_, Object.freeze([]));
	}
	// Without the `as symbol` casts, TS declares these in the `visit`
	// namespace using `var`, but then complains about that because
	// `unique symbol` must be `const`.
	/** Terminate visit traversal completely */
	visitAsync.BREAK = BREAK;
	/** Do not visit the children of the current node */
	visitAsync.SKIP = SKIP;
	/** Remove the current node */
	visitAsync.REMOVE = REMOVE;
	async function visitAsync_(key, node, visitor, path) {
	    const ctrl = await callVisitor(key, node, visitor, path);
	    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
	        replaceNode(key, path, ctrl);
	        return visitAsync_(key, ctrl, visitor, path);
	    }
	    if (typeof ctrl !== 'symbol') {
	        if (identity.isCollection(node)) {
	            path = Object.freeze(path.concat(node));
	            for (let i = 0; i < node.items.length; ++i) {
	                const ci = await visitAsync_(i, node.items[i], visitor, path);
	                if (typeof ci === 'number')
	                    i = ci - 1;
	                else if (ci === BREAK)
	                    return BREAK;
	                else if (ci === REMOVE) {
	                    node.items.splice(i, 1);
	                    i -= 1;
	                }
	            }
	        }
	        else if (identity.isPair(node)) {
	            path = Object.freeze(path.concat(node));
	            const ck = await visitAsync_('key', node.key, visitor, path);
	            if (ck === BREAK)
	                return BREAK;
	            else if (ck === REMOVE)
	                node.key = null;
	            const cv = await visitAsync_('value', node.value, visitor, path);
	            if (cv === BREAK)
	                return BREAK;
	            else if (cv === REMOVE)
	                node.value = null;
	        }
	    }
	    return ctrl;
	}
	function initVisitor(visitor) {
	    if (typeof visitor === 'object' &&
	        (visitor.Collection || visitor.Node || visitor.Value)) {
	        return Object.assign({
	            Alias: visitor.Node,
	            Map: visitor.Node,
	            Scalar: visitor.Node,
	            Seq: visitor.Node
	        }, visitor.Value && {
	            Map: visitor.Value,
	            Scalar: visitor.Value,
	            Seq: visitor.Value
	        }, visitor.Collection && {
	            Map: visitor.Collection,
	            Seq: visitor.Collection
	        }, visitor);
	    }
	    return visitor;
	}
	function callVisitor(key, node, visitor, path) {
	    if (typeof visitor === 'function')
	        return visitor(key, node, path);
	    if (identity.isMap(node))
	        return visitor.Map?.(key, node, path);
	    if (identity.isSeq(node))
	        return visitor.Seq?.(key, node, path);
	    if (identity.isPair(node))
	        return visitor.Pair?.(key, node, path);
	    if (identity.isScalar(node))
	        return visitor.Scalar?.(key, node, path);
	    if (identity.isAlias(node))
	        return visitor.Alias?.(key, node, path);
	    return undefined;
	}
	function replaceNode(key, path, node) {
	    const parent = path[path.length - 1];
	    if (identity.isCollection(parent)) {
	        parent.items[key] = node;
	    }
	    else if (identity.isPair(parent)) {
	        if (key === 'key')
	            parent.key = node;
	        else
	            parent.value = node;
	    }
	    else if (identity.isDocument(parent)) {
	        parent.contents = node;
	    }
	    else {
	        const pt = identity.isAlias(parent) ? 'alias' : 'scalar';
	        throw new Error(`Cannot replace node with ${pt} parent`);
	    }
	}

	visit.visit = visit$1;
	visit.visitAsync = visitAsync;
	return visit;
}

var hasRequiredDirectives;

function requireDirectives () {
	if (hasRequiredDirectives) return directives;
	hasRequiredDirectives = 1;

	var identity = requireIdentity();
	var visit = requireVisit();

	const escapeChars = {
	    '!': '%21',
	    ',': '%2C',
	    '[': '%5B',
	    ']': '%5D',
	    '{': '%7B',
	    '}': '%7D'
	};
	const escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, ch => escapeChars[ch]);
	class Directives {
	    constructor(yaml, tags) {
	        /**
	         * The directives-end/doc-start marker `---`. If `null`, a marker may still be
	         * included in the document's stringified representation.
	         */
	        this.docStart = null;
	        /** The doc-end marker `...`.  */
	        this.docEnd = false;
	        this.yaml = Object.assign({}, Directives.defaultYaml, yaml);
	        this.tags = Object.assign({}, Directives.defaultTags, tags);
	    }
	    clone() {
	        const copy = new Directives(this.yaml, this.tags);
	        copy.docStart = this.docStart;
	        return copy;
	    }
	    /**
	     * During parsing, get a Directives instance for the current document and
	     * update the stream state according to the current version's spec.
	     */
	    atDocument() {
	        const res = new Directives(this.yaml, this.tags);
	        switch (this.yaml.version) {
	            case '1.1':
	                this.atNextDocument = true;
	                break;
	            case '1.2':
	                this.atNextDocument = false;
	                this.yaml = {
	                    explicit: Directives.defaultYaml.explicit,
	                    version: '1.2'
	                };
	                this.tags = Object.assign({}, Directives.defaultTags);
	                break;
	        }
	        return res;
	    }
	    /**
	     * @param onError - May be called even if the action was successful
	     * @returns `true` on success
	     */
	    add(line, onError) {
	        if (this.atNextDocument) {
	            this.yaml = { explicit: Directives.defaultYaml.explicit, version: '1.1' };
	            this.tags = Object.assign({}, Directives.defaultTags);
	            this.atNextDocument = false;
	        }
	        const parts = line.trim().split(/[ \t]+/);
	        const name = parts.shift();
	        switch (name) {
	            case '%TAG': {
	                if (parts.length !== 2) {
	                    onError(0, '%TAG directive should contain exactly two parts');
	                    if (parts.length < 2)
	                        return false;
	                }
	                const [handle, prefix] = parts;
	                this.tags[handle] = prefix;
	                return true;
	            }
	            case '%YAML': {
	                this.yaml.explicit = true;
	                if (parts.length !== 1) {
	                    onError(0, '%YAML directive should contain exactly one part');
	                    return false;
	                }
	                const [version] = parts;
	                if (version === '1.1' || version === '1.2') {
	                    this.yaml.version = version;
	                    return true;
	                }
	                else {
	                    const isValid = /^\d+\.\d+$/.test(version);
	                    onError(6, `Unsupported YAML version ${version}`, isValid);
	                    return false;
	                }
	            }
	            default:
	                onError(0, `Unknown directive ${name}`, true);
	                return false;
	        }
	    }
	    /**
	     * Resolves a tag, matching handles to those defined in %TAG directives.
	     *
	     * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
	     *   `'!local'` tag, or `null` if unresolvable.
	     */
	    tagName(source, onError) {
	        if (source === '!')
	            return '!'; // non-specific tag
	        if (source[0] !== '!') {
	            onError(`Not a valid tag: ${source}`);
	            return null;
	        }
	        if (source[1] === '<') {
	            const verbatim = source.slice(2, -1);
	            if (verbatim === '!' || verbatim === '!!') {
	                onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
	                return null;
	            }
	            if (source[source.length - 1] !== '>')
	                onError('Verbatim tags must end with a >');
	            return verbatim;
	        }
	        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
	        if (!suffix)
	            onError(`The ${source} tag has no suffix`);
	        const prefix = this.tags[handle];
	        if (prefix) {
	            try {
	                return prefix + decodeURIComponent(suffix);
	            }
	            catch (error) {
	                onError(String(error));
	                return null;
	            }
	        }
	        if (handle === '!')
	            return source; // local tag
	        onError(`Could not resolve tag: ${source}`);
	        return null;
	    }
	    /**
	     * Given a fully resolved tag, returns its printable string form,
	     * taking into account current tag prefixes and defaults.
	     */
	    tagString(tag) {
	        for (const [handle, prefix] of Object.entries(this.tags)) {
	            if (tag.startsWith(prefix))
	                return handle + escapeTagName(tag.substring(prefix.length));
	        }
	        return tag[0] === '!' ? tag : `!<${tag}>`;
	    }
	    toString(doc) {
	        const lines = this.yaml.explicit
	            ? [`%YAML ${this.yaml.version || '1.2'}`]
	            : [];
	        const tagEntries = Object.entries(this.tags);
	        let tagNames;
	        if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
	            const tags = {};
	            visit.visit(doc.contents, (_key, node) => {
	                if (identity.isNode(node) && node.tag)
	                    tags[node.tag] = true;
	            });
	            tagNames = Object.keys(tags);
	        }
	        else
	            tagNames = [];
	        for (const [handle, prefix] of tagEntries) {
	            if (handle === '!!' && prefix === 'tag:yaml.org,2002:')
	                continue;
	            if (!doc || tagNames.some(tn => tn.startsWith(prefix)))
	                lines.push(`%TAG ${handle} ${prefix}`);
	        }
	        return lines.join('\n');
	    }
	}
	Directives.defaultYaml = { explicit: false, version: '1.2' };
	Directives.defaultTags = { '!!': 'tag:yaml.org,2002:' };

	directives.Directives = Directives;
	return directives;
}

var Document = {};

var Alias = {};

var anchors = {};

var hasRequiredAnchors;

function requireAnchors () {
	if (hasRequiredAnchors) return anchors;
	hasRequiredAnchors = 1;

	var identity = requireIdentity();
	var visit = requireVisit();

	/**
	 * Verify that the input string is a valid anchor.
	 *
	 * Will throw on errors.
	 */
	function anchorIsValid(anchor) {
	    if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
	        const sa = JSON.stringify(anchor);
	        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
	        throw new Error(msg);
	    }
	    return true;
	}
	function anchorNames(root) {
	    const anchors = new Set();
	    visit.visit(root, {
	        Value(_key, node) {
	            if (node.anchor)
	                anchors.add(node.anchor);
	        }
	    });
	    return anchors;
	}
	/** Find a new anchor name with the given `prefix` and a one-indexed suffix. */
	function findNewAnchor(prefix, exclude) {
	    for (let i = 1; true; ++i) {
	        const name = `${prefix}${i}`;
	        if (!exclude.has(name))
	            return name;
	    }
	}
	function createNodeAnchors(doc, prefix) {
	    const aliasObjects = [];
	    const sourceObjects = new Map();
	    let prevAnchors = null;
	    return {
	        onAnchor: (source) => {
	            aliasObjects.push(source);
	            prevAnchors ?? (prevAnchors = anchorNames(doc));
	            const anchor = findNewAnchor(prefix, prevAnchors);
	            prevAnchors.add(anchor);
	            return anchor;
	        },
	        /**
	         * With circular references, the source node is only resolved after all
	         * of its child nodes are. This is why anchors are set only after all of
	         * the nodes have been created.
	         */
	        setAnchors: () => {
	            for (const source of aliasObjects) {
	                const ref = sourceObjects.get(source);
	                if (typeof ref === 'object' &&
	                    ref.anchor &&
	                    (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
	                    ref.node.anchor = ref.anchor;
	                }
	                else {
	                    const error = new Error('Failed to resolve repeated object (this should not happen)');
	                    error.source = source;
	                    throw error;
	                }
	            }
	        },
	        sourceObjects
	    };
	}

	anchors.anchorIsValid = anchorIsValid;
	anchors.anchorNames = anchorNames;
	anchors.createNodeAnchors = createNodeAnchors;
	anchors.findNewAnchor = findNewAnchor;
	return anchors;
}

var Node = {};

var applyReviver = {};

var hasRequiredApplyReviver;

function requireApplyReviver () {
	if (hasRequiredApplyReviver) return applyReviver;
	hasRequiredApplyReviver = 1;

	/**
	 * Applies the JSON.parse reviver algorithm as defined in the ECMA-262 spec,
	 * in section 24.5.1.1 "Runtime Semantics: InternalizeJSONProperty" of the
	 * 2021 edition: https://tc39.es/ecma262/#sec-json.parse
	 *
	 * Includes extensions for handling Map and Set objects.
	 */
	function applyReviver$1(reviver, obj, key, val) {
	    if (val && typeof val === 'object') {
	        if (Array.isArray(val)) {
	            for (let i = 0, len = val.length; i < len; ++i) {
	                const v0 = val[i];
	                const v1 = applyReviver$1(reviver, val, String(i), v0);
	                // eslint-disable-next-line @typescript-eslint/no-array-delete
	                if (v1 === undefined)
	                    delete val[i];
	                else if (v1 !== v0)
	                    val[i] = v1;
	            }
	        }
	        else if (val instanceof Map) {
	            for (const k of Array.from(val.keys())) {
	                const v0 = val.get(k);
	                const v1 = applyReviver$1(reviver, val, k, v0);
	                if (v1 === undefined)
	                    val.delete(k);
	                else if (v1 !== v0)
	                    val.set(k, v1);
	            }
	        }
	        else if (val instanceof Set) {
	            for (const v0 of Array.from(val)) {
	                const v1 = applyReviver$1(reviver, val, v0, v0);
	                if (v1 === undefined)
	                    val.delete(v0);
	                else if (v1 !== v0) {
	                    val.delete(v0);
	                    val.add(v1);
	                }
	            }
	        }
	        else {
	            for (const [k, v0] of Object.entries(val)) {
	                const v1 = applyReviver$1(reviver, val, k, v0);
	                if (v1 === undefined)
	                    delete val[k];
	                else if (v1 !== v0)
	                    val[k] = v1;
	            }
	        }
	    }
	    return reviver.call(obj, key, val);
	}

	applyReviver.applyReviver = applyReviver$1;
	return applyReviver;
}

var toJS = {};

var hasRequiredToJS;

function requireToJS () {
	if (hasRequiredToJS) return toJS;
	hasRequiredToJS = 1;

	var identity = requireIdentity();

	/**
	 * Recursively convert any node or its contents to native JavaScript
	 *
	 * @param value - The input value
	 * @param arg - If `value` defines a `toJSON()` method, use this
	 *   as its first argument
	 * @param ctx - Conversion context, originally set in Document#toJS(). If
	 *   `{ keep: true }` is not set, output should be suitable for JSON
	 *   stringification.
	 */
	function toJS$1(value, arg, ctx) {
	    // eslint-disable-next-line @typescript-eslint/no-unsafe-return
	    if (Array.isArray(value))
	        return value.map((v, i) => toJS$1(v, String(i), ctx));
	    if (value && typeof value.toJSON === 'function') {
	        // eslint-disable-next-line @typescript-eslint/no-unsafe-call
	        if (!ctx || !identity.hasAnchor(value))
	            return value.toJSON(arg, ctx);
	        const data = { aliasCount: 0, count: 1, res: undefined };
	        ctx.anchors.set(value, data);
	        ctx.onCreate = res => {
	            data.res = res;
	            delete ctx.onCreate;
	        };
	        const res = value.toJSON(arg, ctx);
	        if (ctx.onCreate)
	            ctx.onCreate(res);
	        return res;
	    }
	    if (typeof value === 'bigint' && !ctx?.keep)
	        return Number(value);
	    return value;
	}

	toJS.toJS = toJS$1;
	return toJS;
}

var hasRequiredNode;

function requireNode () {
	if (hasRequiredNode) return Node;
	hasRequiredNode = 1;

	var applyReviver = requireApplyReviver();
	var identity = requireIdentity();
	var toJS = requireToJS();

	class NodeBase {
	    constructor(type) {
	        Object.defineProperty(this, identity.NODE_TYPE, { value: type });
	    }
	    /** Create a copy of this node.  */
	    clone() {
	        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
	        if (this.range)
	            copy.range = this.range.slice();
	        return copy;
	    }
	    /** A plain JavaScript representation of this node. */
	    toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
	        if (!identity.isDocument(doc))
	            throw new TypeError('A document argument is required');
	        const ctx = {
	            anchors: new Map(),
	            doc,
	            keep: true,
	            mapAsMap: mapAsMap === true,
	            mapKeyWarned: false,
	            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
	        };
	        const res = toJS.toJS(this, '', ctx);
	        if (typeof onAnchor === 'function')
	            for (const { count, res } of ctx.anchors.values())
	                onAnchor(res, count);
	        return typeof reviver === 'function'
	            ? applyReviver.applyReviver(reviver, { '': res }, '', res)
	            : res;
	    }
	}

	Node.NodeBase = NodeBase;
	return Node;
}

var hasRequiredAlias;

function requireAlias () {
	if (hasRequiredAlias) return Alias;
	hasRequiredAlias = 1;

	var anchors = requireAnchors();
	var visit = requireVisit();
	var identity = requireIdentity();
	var Node = requireNode();
	var toJS = requireToJS();

	let Alias$1 = class Alias extends Node.NodeBase {
	    constructor(source) {
	        super(identity.ALIAS);
	        this.source = source;
	        Object.defineProperty(this, 'tag', {
	            set() {
	                throw new Error('Alias nodes cannot have tags');
	            }
	        });
	    }
	    /**
	     * Resolve the value of this alias within `doc`, finding the last
	     * instance of the `source` anchor before this node.
	     */
	    resolve(doc, ctx) {
	        if (ctx?.maxAliasCount === 0)
	            throw new ReferenceError('Alias resolution is disabled');
	        let nodes;
	        if (ctx?.aliasResolveCache) {
	            nodes = ctx.aliasResolveCache;
	        }
	        else {
	            nodes = [];
	            visit.visit(doc, {
	                Node: (_key, node) => {
	                    if (identity.isAlias(node) || identity.hasAnchor(node))
	                        nodes.push(node);
	                }
	            });
	            if (ctx)
	                ctx.aliasResolveCache = nodes;
	        }
	        let found = undefined;
	        for (const node of nodes) {
	            if (node === this)
	                break;
	            if (node.anchor === this.source)
	                found = node;
	        }
	        if (found && ctx) {
	            const { anchors, doc, maxAliasCount } = ctx;
	            let data = anchors.get(found);
	            if (!data) {
	                // Resolve anchors for Node.prototype.toJS()
	                toJS.toJS(found, null, ctx);
	                data = anchors.get(found);
	            }
	            /* istanbul ignore if */
	            if (data?.res === undefined) {
	                const msg = 'This should not happen: Alias anchor was not resolved?';
	                throw new ReferenceError(msg);
	            }
	            if (maxAliasCount >= 0) {
	                data.count += 1;
	                if (data.aliasCount === 0)
	                    data.aliasCount = getAliasCount(doc, found, anchors);
	                if (data.count * data.aliasCount > maxAliasCount) {
	                    const msg = 'Excessive alias count indicates a resource exhaustion attack';
	                    throw new ReferenceError(msg);
	                }
	            }
	        }
	        return found;
	    }
	    toJSON(_arg, ctx) {
	        if (!ctx)
	            return { source: this.source };
	        const source = this.resolve(ctx.doc, ctx);
	        if (!source) {
	            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
	            throw new ReferenceError(msg);
	        }
	        return ctx.anchors.get(source).res;
	    }
	    toString(ctx, _onComment, _onChompKeep) {
	        const src = `*${this.source}`;
	        if (ctx) {
	            anchors.anchorIsValid(this.source);
	            if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
	                const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
	                throw new Error(msg);
	            }
	            if (ctx.implicitKey)
	                return `${src} `;
	        }
	        return src;
	    }
	};
	function getAliasCount(doc, node, anchors) {
	    if (identity.isAlias(node)) {
	        const source = node.resolve(doc);
	        const anchor = anchors && source && anchors.get(source);
	        return anchor ? anchor.count * anchor.aliasCount : 0;
	    }
	    else if (identity.isCollection(node)) {
	        let count = 0;
	        for (const item of node.items) {
	            const c = getAliasCount(doc, item, anchors);
	            if (c > count)
	                count = c;
	        }
	        return count;
	    }
	    else if (identity.isPair(node)) {
	        const kc = getAliasCount(doc, node.key, anchors);
	        const vc = getAliasCount(doc, node.value, anchors);
	        return Math.max(kc, vc);
	    }
	    return 1;
	}

	Alias.Alias = Alias$1;
	return Alias;
}

var Collection = {};

var createNode = {};

var Scalar = {};

var hasRequiredScalar;

function requireScalar () {
	if (hasRequiredScalar) return Scalar;
	hasRequiredScalar = 1;

	var identity = requireIdentity();
	var Node = requireNode();
	var toJS = requireToJS();

	const isScalarValue = (value) => !value || (typeof value !== 'function' && typeof value !== 'object');
	let Scalar$1 = class Scalar extends Node.NodeBase {
	    constructor(value) {
	        super(identity.SCALAR);
	        this.value = value;
	    }
	    toJSON(arg, ctx) {
	        return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
	    }
	    toString() {
	        return String(this.value);
	    }
	};
	Scalar$1.BLOCK_FOLDED = 'BLOCK_FOLDED';
	Scalar$1.BLOCK_LITERAL = 'BLOCK_LITERAL';
	Scalar$1.PLAIN = 'PLAIN';
	Scalar$1.QUOTE_DOUBLE = 'QUOTE_DOUBLE';
	Scalar$1.QUOTE_SINGLE = 'QUOTE_SINGLE';

	Scalar.Scalar = Scalar$1;
	Scalar.isScalarValue = isScalarValue;
	return Scalar;
}

var hasRequiredCreateNode;

function requireCreateNode () {
	if (hasRequiredCreateNode) return createNode;
	hasRequiredCreateNode = 1;

	var Alias = requireAlias();
	var identity = requireIdentity();
	var Scalar = requireScalar();

	const defaultTagPrefix = 'tag:yaml.org,2002:';
	function findTagObject(value, tagName, tags) {
	    if (tagName) {
	        const match = tags.filter(t => t.tag === tagName);
	        const tagObj = match.find(t => !t.format) ?? match[0];
	        if (!tagObj)
	            throw new Error(`Tag ${tagName} not found`);
	        return tagObj;
	    }
	    return tags.find(t => t.identify?.(value) && !t.format);
	}
	function createNode$1(value, tagName, ctx) {
	    if (identity.isDocument(value))
	        value = value.contents;
	    if (identity.isNode(value))
	        return value;
	    if (identity.isPair(value)) {
	        const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
	        map.items.push(value);
	        return map;
	    }
	    if (value instanceof String ||
	        value instanceof Number ||
	        value instanceof Boolean ||
	        (typeof BigInt !== 'undefined' && value instanceof BigInt) // not supported everywhere
	    ) {
	        // https://tc39.es/ecma262/#sec-serializejsonproperty
	        value = value.valueOf();
	    }
	    const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
	    // Detect duplicate references to the same object & use Alias nodes for all
	    // after first. The `ref` wrapper allows for circular references to resolve.
	    let ref = undefined;
	    if (aliasDuplicateObjects && value && typeof value === 'object') {
	        ref = sourceObjects.get(value);
	        if (ref) {
	            ref.anchor ?? (ref.anchor = onAnchor(value));
	            return new Alias.Alias(ref.anchor);
	        }
	        else {
	            ref = { anchor: null, node: null };
	            sourceObjects.set(value, ref);
	        }
	    }
	    if (tagName?.startsWith('!!'))
	        tagName = defaultTagPrefix + tagName.slice(2);
	    let tagObj = findTagObject(value, tagName, schema.tags);
	    if (!tagObj) {
	        if (value && typeof value.toJSON === 'function') {
	            // eslint-disable-next-line @typescript-eslint/no-unsafe-call
	            value = value.toJSON();
	        }
	        if (!value || typeof value !== 'object') {
	            const node = new Scalar.Scalar(value);
	            if (ref)
	                ref.node = node;
	            return node;
	        }
	        tagObj =
	            value instanceof Map
	                ? schema[identity.MAP]
	                : Symbol.iterator in Object(value)
	                    ? schema[identity.SEQ]
	                    : schema[identity.MAP];
	    }
	    if (onTagObj) {
	        onTagObj(tagObj);
	        delete ctx.onTagObj;
	    }
	    const node = tagObj?.createNode
	        ? tagObj.createNode(ctx.schema, value, ctx)
	        : typeof tagObj?.nodeClass?.from === 'function'
	            ? tagObj.nodeClass.from(ctx.schema, value, ctx)
	            : new Scalar.Scalar(value);
	    if (tagName)
	        node.tag = tagName;
	    else if (!tagObj.default)
	        node.tag = tagObj.tag;
	    if (ref)
	        ref.node = node;
	    return node;
	}

	createNode.createNode = createNode$1;
	return createNode;
}

var hasRequiredCollection;

function requireCollection () {
	if (hasRequiredCollection) return Collection;
	hasRequiredCollection = 1;

	var createNode = requireCreateNode();
	var identity = requireIdentity();
	var Node = requireNode();

	function collectionFromPath(schema, path, value) {
	    let v = value;
	    for (let i = path.length - 1; i >= 0; --i) {
	        const k = path[i];
	        if (typeof k === 'number' && Number.isInteger(k) && k >= 0) {
	            const a = [];
	            a[k] = v;
	            v = a;
	        }
	        else {
	            v = new Map([[k, v]]);
	        }
	    }
	    return createNode.createNode(v, undefined, {
	        aliasDuplicateObjects: false,
	        keepUndefined: false,
	        onAnchor: () => {
	            throw new Error('This should not happen, please report a bug.');
	        },
	        schema,
	        sourceObjects: new Map()
	    });
	}
	// Type guard is intentionally a little wrong so as to be more useful,
	// as it does not cover untypable empty non-string iterables (e.g. []).
	const isEmptyPath = (path) => path == null ||
	    (typeof path === 'object' && !!path[Symbol.iterator]().next().done);
	let Collection$1 = class Collection extends Node.NodeBase {
	    constructor(type, schema) {
	        super(type);
	        Object.defineProperty(this, 'schema', {
	            value: schema,
	            configurable: true,
	            enumerable: false,
	            writable: true
	        });
	    }
	    /**
	     * Create a copy of this collection.
	     *
	     * @param schema - If defined, overwrites the original's schema
	     */
	    clone(schema) {
	        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
	        if (schema)
	            copy.schema = schema;
	        copy.items = copy.items.map(it => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
	        if (this.range)
	            copy.range = this.range.slice();
	        return copy;
	    }
	    /**
	     * Adds a value to the collection. For `!!map` and `!!omap` the value must
	     * be a Pair instance or a `{ key, value }` object, which may not have a key
	     * that already exists in the map.
	     */
	    addIn(path, value) {
	        if (isEmptyPath(path))
	            this.add(value);
	        else {
	            const [key, ...rest] = path;
	            const node = this.get(key, true);
	            if (identity.isCollection(node))
	                node.addIn(rest, value);
	            else if (node === undefined && this.schema)
	                this.set(key, collectionFromPath(this.schema, rest, value));
	            else
	                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
	        }
	    }
	    /**
	     * Removes a value from the collection.
	     * @returns `true` if the item was found and removed.
	     */
	    deleteIn(path) {
	        const [key, ...rest] = path;
	        if (rest.length === 0)
	            return this.delete(key);
	        const node = this.get(key, true);
	        if (identity.isCollection(node))
	            return node.deleteIn(rest);
	        else
	            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
	    }
	    /**
	     * Returns item at `key`, or `undefined` if not found. By default unwraps
	     * scalar values from their surrounding node; to disable set `keepScalar` to
	     * `true` (collections are always returned intact).
	     */
	    getIn(path, keepScalar) {
	        const [key, ...rest] = path;
	        const node = this.get(key, true);
	        if (rest.length === 0)
	            return !keepScalar && identity.isScalar(node) ? node.value : node;
	        else
	            return identity.isCollection(node) ? node.getIn(rest, keepScalar) : undefined;
	    }
	    hasAllNullValues(allowScalar) {
	        return this.items.every(node => {
	            if (!identity.isPair(node))
	                return false;
	            const n = node.value;
	            return (n == null ||
	                (allowScalar &&
	                    identity.isScalar(n) &&
	                    n.value == null &&
	                    !n.commentBefore &&
	                    !n.comment &&
	                    !n.tag));
	        });
	    }
	    /**
	     * Checks if the collection includes a value with the key `key`.
	     */
	    hasIn(path) {
	        const [key, ...rest] = path;
	        if (rest.length === 0)
	            return this.has(key);
	        const node = this.get(key, true);
	        return identity.isCollection(node) ? node.hasIn(rest) : false;
	    }
	    /**
	     * Sets a value in this collection. For `!!set`, `value` needs to be a
	     * boolean to add/remove the item from the set.
	     */
	    setIn(path, value) {
	        const [key, ...rest] = path;
	        if (rest.length === 0) {
	            this.set(key, value);
	        }
	        else {
	            const node = this.get(key, true);
	            if (identity.isCollection(node))
	                node.setIn(rest, value);
	            else if (node === undefined && this.schema)
	                this.set(key, collectionFromPath(this.schema, rest, value));
	            else
	                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
	        }
	    }
	};

	Collection.Collection = Collection$1;
	Collection.collectionFromPath = collectionFromPath;
	Collection.isEmptyPath = isEmptyPath;
	return Collection;
}

var Pair = {};

var stringifyPair = {};

var stringify = {};

var stringifyComment = {};

var hasRequiredStringifyComment;

function requireStringifyComment () {
	if (hasRequiredStringifyComment) return stringifyComment;
	hasRequiredStringifyComment = 1;

	/**
	 * Stringifies a comment.
	 *
	 * Empty comment lines are left empty,
	 * lines consisting of a single space are replaced by `#`,
	 * and all other lines are prefixed with a `#`.
	 */
	const stringifyComment$1 = (str) => str.replace(/^(?!$)(?: $)?/gm, '#');
	function indentComment(comment, indent) {
	    if (/^\n+$/.test(comment))
	        return comment.substring(1);
	    return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
	}
	const lineComment = (str, indent, comment) => str.endsWith('\n')
	    ? indentComment(comment, indent)
	    : comment.includes('\n')
	        ? '\n' + indentComment(comment, indent)
	        : (str.endsWith(' ') ? '' : ' ') + comment;

	stringifyComment.indentComment = indentComment;
	stringifyComment.lineComment = lineComment;
	stringifyComment.stringifyComment = stringifyComment$1;
	return stringifyComment;
}

var stringifyString = {};

var foldFlowLines = {};

var hasRequiredFoldFlowLines;

function requireFoldFlowLines () {
	if (hasRequiredFoldFlowLines) return foldFlowLines;
	hasRequiredFoldFlowLines = 1;

	const FOLD_FLOW = 'flow';
	const FOLD_BLOCK = 'block';
	const FOLD_QUOTED = 'quoted';
	/**
	 * Tries to keep input at up to `lineWidth` characters, splitting only on spaces
	 * not followed by newlines or spaces unless `mode` is `'quoted'`. Lines are
	 * terminated with `\n` and started with `indent`.
	 */
	function foldFlowLines$1(text, indent, mode = 'flow', { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
	    if (!lineWidth || lineWidth < 0)
	        return text;
	    if (lineWidth < minContentWidth)
	        minContentWidth = 0;
	    const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
	    if (text.length <= endStep)
	        return text;
	    const folds = [];
	    const escapedFolds = {};
	    let end = lineWidth - indent.length;
	    if (typeof indentAtStart === 'number') {
	        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
	            folds.push(0);
	        else
	            end = lineWidth - indentAtStart;
	    }
	    let split = undefined;
	    let prev = undefined;
	    let overflow = false;
	    let i = -1;
	    let escStart = -1;
	    let escEnd = -1;
	    if (mode === FOLD_BLOCK) {
	        i = consumeMoreIndentedLines(text, i, indent.length);
	        if (i !== -1)
	            end = i + endStep;
	    }
	    for (let ch; (ch = text[(i += 1)]);) {
	        if (mode === FOLD_QUOTED && ch === '\\') {
	            escStart = i;
	            switch (text[i + 1]) {
	                case 'x':
	                    i += 3;
	                    break;
	                case 'u':
	                    i += 5;
	                    break;
	                case 'U':
	                    i += 9;
	                    break;
	                default:
	                    i += 1;
	            }
	            escEnd = i;
	        }
	        if (ch === '\n') {
	            if (mode === FOLD_BLOCK)
	                i = consumeMoreIndentedLines(text, i, indent.length);
	            end = i + indent.length + endStep;
	            split = undefined;
	        }
	        else {
	            if (ch === ' ' &&
	                prev &&
	                prev !== ' ' &&
	                prev !== '\n' &&
	                prev !== '\t') {
	                // space surrounded by non-space can be replaced with newline + indent
	                const next = text[i + 1];
	                if (next && next !== ' ' && next !== '\n' && next !== '\t')
	                    split = i;
	            }
	            if (i >= end) {
	                if (split) {
	                    folds.push(split);
	                    end = split + endStep;
	                    split = undefined;
	                }
	                else if (mode === FOLD_QUOTED) {
	                    // white-space collected at end may stretch past lineWidth
	                    while (prev === ' ' || prev === '\t') {
	                        prev = ch;
	                        ch = text[(i += 1)];
	                        overflow = true;
	                    }
	                    // Account for newline escape, but don't break preceding escape
	                    const j = i > escEnd + 1 ? i - 2 : escStart - 1;
	                    // Bail out if lineWidth & minContentWidth are shorter than an escape string
	                    if (escapedFolds[j])
	                        return text;
	                    folds.push(j);
	                    escapedFolds[j] = true;
	                    end = j + endStep;
	                    split = undefined;
	                }
	                else {
	                    overflow = true;
	                }
	            }
	        }
	        prev = ch;
	    }
	    if (overflow && onOverflow)
	        onOverflow();
	    if (folds.length === 0)
	        return text;
	    if (onFold)
	        onFold();
	    let res = text.slice(0, folds[0]);
	    for (let i = 0; i < folds.length; ++i) {
	        const fold = folds[i];
	        const end = folds[i + 1] || text.length;
	        if (fold === 0)
	            res = `\n${indent}${text.slice(0, end)}`;
	        else {
	            if (mode === FOLD_QUOTED && escapedFolds[fold])
	                res += `${text[fold]}\\`;
	            res += `\n${indent}${text.slice(fold + 1, end)}`;
	        }
	    }
	    return res;
	}
	/**
	 * Presumes `i + 1` is at the start of a line
	 * @returns index of last newline in more-indented block
	 */
	function consumeMoreIndentedLines(text, i, indent) {
	    let end = i;
	    let start = i + 1;
	    let ch = text[start];
	    while (ch === ' ' || ch === '\t') {
	        if (i < start + indent) {
	            ch = text[++i];
	        }
	        else {
	            do {
	                ch = text[++i];
	            } while (ch && ch !== '\n');
	            end = i;
	            start = i + 1;
	            ch = text[start];
	        }
	    }
	    return end;
	}

	foldFlowLines.FOLD_BLOCK = FOLD_BLOCK;
	foldFlowLines.FOLD_FLOW = FOLD_FLOW;
	foldFlowLines.FOLD_QUOTED = FOLD_QUOTED;
	foldFlowLines.foldFlowLines = foldFlowLines$1;
	return foldFlowLines;
}

var hasRequiredStringifyString;

function requireStringifyString () {
	if (hasRequiredStringifyString) return stringifyString;
	hasRequiredStringifyString = 1;

	var Scalar = requireScalar();
	var foldFlowLines = requireFoldFlowLines();

	const getFoldOptions = (ctx, isBlock) => ({
	    indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
	    lineWidth: ctx.options.lineWidth,
	    minContentWidth: ctx.options.minContentWidth
	});
	// Also checks for lines starting with %, as parsing the output as YAML 1.1 will
	// presume that's starting a new document.
	const containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
	function lineLengthOverLimit(str, lineWidth, indentLength) {
	    if (!lineWidth || lineWidth < 0)
	        return false;
	    const limit = lineWidth - indentLength;
	    const strLen = str.length;
	    if (strLen <= limit)
	        return false;
	    for (let i = 0, start = 0; i < strLen; ++i) {
	        if (str[i] === '\n') {
	            if (i - start > limit)
	                return true;
	            start = i + 1;
	            if (strLen - start <= limit)
	                return false;
	        }
	    }
	    return true;
	}
	function doubleQuotedString(value, ctx) {
	    const json = JSON.stringify(value);
	    if (ctx.options.doubleQuotedAsJSON)
	        return json;
	    const { implicitKey } = ctx;
	    const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
	    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
	    let str = '';
	    let start = 0;
	    for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
	        if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
	            // space before newline needs to be escaped to not be folded
	            str += json.slice(start, i) + '\\ ';
	            i += 1;
	            start = i;
	            ch = '\\';
	        }
	        if (ch === '\\')
	            switch (json[i + 1]) {
	                case 'u':
	                    {
	                        str += json.slice(start, i);
	                        const code = json.substr(i + 2, 4);
	                        switch (code) {
	                            case '0000':
	                                str += '\\0';
	                                break;
	                            case '0007':
	                                str += '\\a';
	                                break;
	                            case '000b':
	                                str += '\\v';
	                                break;
	                            case '001b':
	                                str += '\\e';
	                                break;
	                            case '0085':
	                                str += '\\N';
	                                break;
	                            case '00a0':
	                                str += '\\_';
	                                break;
	                            case '2028':
	                                str += '\\L';
	                                break;
	                            case '2029':
	                                str += '\\P';
	                                break;
	                            default:
	                                if (code.substr(0, 2) === '00')
	                                    str += '\\x' + code.substr(2);
	                                else
	                                    str += json.substr(i, 6);
	                        }
	                        i += 5;
	                        start = i + 1;
	                    }
	                    break;
	                case 'n':
	                    if (implicitKey ||
	                        json[i + 2] === '"' ||
	                        json.length < minMultiLineLength) {
	                        i += 1;
	                    }
	                    else {
	                        // folding will eat first newline
	                        str += json.slice(start, i) + '\n\n';
	                        while (json[i + 2] === '\\' &&
	                            json[i + 3] === 'n' &&
	                            json[i + 4] !== '"') {
	                            str += '\n';
	                            i += 2;
	                        }
	                        str += indent;
	                        // space after newline needs to be escaped to not be folded
	                        if (json[i + 2] === ' ')
	                            str += '\\';
	                        i += 1;
	                        start = i + 1;
	                    }
	                    break;
	                default:
	                    i += 1;
	            }
	    }
	    str = start ? str + json.slice(start) : json;
	    return implicitKey
	        ? str
	        : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
	}
	function singleQuotedString(value, ctx) {
	    if (ctx.options.singleQuote === false ||
	        (ctx.implicitKey && value.includes('\n')) ||
	        /[ \t]\n|\n[ \t]/.test(value) // single quoted string can't have leading or trailing whitespace around newline
	    )
	        return doubleQuotedString(value, ctx);
	    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
	    const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`) + "'";
	    return ctx.implicitKey
	        ? res
	        : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
	}
	function quotedString(value, ctx) {
	    const { singleQuote } = ctx.options;
	    let qs;
	    if (singleQuote === false)
	        qs = doubleQuotedString;
	    else {
	        const hasDouble = value.includes('"');
	        const hasSingle = value.includes("'");
	        if (hasDouble && !hasSingle)
	            qs = singleQuotedString;
	        else if (hasSingle && !hasDouble)
	            qs = doubleQuotedString;
	        else
	            qs = singleQuote ? singleQuotedString : doubleQuotedString;
	    }
	    return qs(value, ctx);
	}
	// The negative lookbehind avoids a polynomial search,
	// but isn't supported yet on Safari: https://caniuse.com/js-regexp-lookbehind
	let blockEndNewlines;
	try {
	    blockEndNewlines = new RegExp('(^|(?<!\n))\n+(?!\n|$)', 'g');
	}
	catch {
	    blockEndNewlines = /\n+(?!\n|$)/g;
	}
	function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
	    const { blockQuote, commentString, lineWidth } = ctx.options;
	    // 1. Block can't end in whitespace unless the last line is non-empty.
	    // 2. Strings consisting of only whitespace are best rendered explicitly.
	    if (!blockQuote || /\n[\t ]+$/.test(value)) {
	        return quotedString(value, ctx);
	    }
	    const indent = ctx.indent ||
	        (ctx.forceBlockIndent || containsDocumentMarker(value) ? '  ' : '');
	    const literal = blockQuote === 'literal'
	        ? true
	        : blockQuote === 'folded' || type === Scalar.Scalar.BLOCK_FOLDED
	            ? false
	            : type === Scalar.Scalar.BLOCK_LITERAL
	                ? true
	                : !lineLengthOverLimit(value, lineWidth, indent.length);
	    if (!value)
	        return literal ? '|\n' : '>\n';
	    // determine chomping from whitespace at value end
	    let chomp;
	    let endStart;
	    for (endStart = value.length; endStart > 0; --endStart) {
	        const ch = value[endStart - 1];
	        if (ch !== '\n' && ch !== '\t' && ch !== ' ')
	            break;
	    }
	    let end = value.substring(endStart);
	    const endNlPos = end.indexOf('\n');
	    if (endNlPos === -1) {
	        chomp = '-'; // strip
	    }
	    else if (value === end || endNlPos !== end.length - 1) {
	        chomp = '+'; // keep
	        if (onChompKeep)
	            onChompKeep();
	    }
	    else {
	        chomp = ''; // clip
	    }
	    if (end) {
	        value = value.slice(0, -end.length);
	        if (end[end.length - 1] === '\n')
	            end = end.slice(0, -1);
	        end = end.replace(blockEndNewlines, `$&${indent}`);
	    }
	    // determine indent indicator from whitespace at value start
	    let startWithSpace = false;
	    let startEnd;
	    let startNlPos = -1;
	    for (startEnd = 0; startEnd < value.length; ++startEnd) {
	        const ch = value[startEnd];
	        if (ch === ' ')
	            startWithSpace = true;
	        else if (ch === '\n')
	            startNlPos = startEnd;
	        else
	            break;
	    }
	    let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
	    if (start) {
	        value = value.substring(start.length);
	        start = start.replace(/\n+/g, `$&${indent}`);
	    }
	    const indentSize = indent ? '2' : '1'; // root is at -1
	    // Leading | or > is added later
	    let header = (startWithSpace ? indentSize : '') + chomp;
	    if (comment) {
	        header += ' ' + commentString(comment.replace(/ ?[\r\n]+/g, ' '));
	        if (onComment)
	            onComment();
	    }
	    if (!literal) {
	        const foldedValue = value
	            .replace(/\n+/g, '\n$&')
	            .replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, '$1$2') // more-indented lines aren't folded
	            //                ^ more-ind. ^ empty     ^ capture next empty lines only at end of indent
	            .replace(/\n+/g, `$&${indent}`);
	        let literalFallback = false;
	        const foldOptions = getFoldOptions(ctx, true);
	        if (blockQuote !== 'folded' && type !== Scalar.Scalar.BLOCK_FOLDED) {
	            foldOptions.onOverflow = () => {
	                literalFallback = true;
	            };
	        }
	        const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
	        if (!literalFallback)
	            return `>${header}\n${indent}${body}`;
	    }
	    value = value.replace(/\n+/g, `$&${indent}`);
	    return `|${header}\n${indent}${start}${value}${end}`;
	}
	function plainString(item, ctx, onComment, onChompKeep) {
	    const { type, value } = item;
	    const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
	    if ((implicitKey && value.includes('\n')) ||
	        (inFlow && /[[\]{},]/.test(value))) {
	        return quotedString(value, ctx);
	    }
	    if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
	        // not allowed:
	        // - '-' or '?'
	        // - start with an indicator character (except [?:-]) or /[?-] /
	        // - '\n ', ': ' or ' \n' anywhere
	        // - '#' not preceded by a non-space char
	        // - end with ' ' or ':'
	        return implicitKey || inFlow || !value.includes('\n')
	            ? quotedString(value, ctx)
	            : blockString(item, ctx, onComment, onChompKeep);
	    }
	    if (!implicitKey &&
	        !inFlow &&
	        type !== Scalar.Scalar.PLAIN &&
	        value.includes('\n')) {
	        // Where allowed & type not set explicitly, prefer block style for multiline strings
	        return blockString(item, ctx, onComment, onChompKeep);
	    }
	    if (containsDocumentMarker(value)) {
	        if (indent === '') {
	            ctx.forceBlockIndent = true;
	            return blockString(item, ctx, onComment, onChompKeep);
	        }
	        else if (implicitKey && indent === indentStep) {
	            return quotedString(value, ctx);
	        }
	    }
	    const str = value.replace(/\n+/g, `$&\n${indent}`);
	    // Verify that output will be parsed as a string, as e.g. plain numbers and
	    // booleans get parsed with those types in v1.2 (e.g. '42', 'true' & '0.9e-3'),
	    // and others in v1.1.
	    if (actualString) {
	        const test = (tag) => tag.default && tag.tag !== 'tag:yaml.org,2002:str' && tag.test?.test(str);
	        const { compat, tags } = ctx.doc.schema;
	        if (tags.some(test) || compat?.some(test))
	            return quotedString(value, ctx);
	    }
	    return implicitKey
	        ? str
	        : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
	}
	function stringifyString$1(item, ctx, onComment, onChompKeep) {
	    const { implicitKey, inFlow } = ctx;
	    const ss = typeof item.value === 'string'
	        ? item
	        : Object.assign({}, item, { value: String(item.value) });
	    let { type } = item;
	    if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
	        // force double quotes on control characters & unpaired surrogates
	        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
	            type = Scalar.Scalar.QUOTE_DOUBLE;
	    }
	    const _stringify = (_type) => {
	        switch (_type) {
	            case Scalar.Scalar.BLOCK_FOLDED:
	            case Scalar.Scalar.BLOCK_LITERAL:
	                return implicitKey || inFlow
	                    ? quotedString(ss.value, ctx) // blocks are not valid inside flow containers
	                    : blockString(ss, ctx, onComment, onChompKeep);
	            case Scalar.Scalar.QUOTE_DOUBLE:
	                return doubleQuotedString(ss.value, ctx);
	            case Scalar.Scalar.QUOTE_SINGLE:
	                return singleQuotedString(ss.value, ctx);
	            case Scalar.Scalar.PLAIN:
	                return plainString(ss, ctx, onComment, onChompKeep);
	            default:
	                return null;
	        }
	    };
	    let res = _stringify(type);
	    if (res === null) {
	        const { defaultKeyType, defaultStringType } = ctx.options;
	        const t = (implicitKey && defaultKeyType) || defaultStringType;
	        res = _stringify(t);
	        if (res === null)
	            throw new Error(`Unsupported default string type ${t}`);
	    }
	    return res;
	}

	stringifyString.stringifyString = stringifyString$1;
	return stringifyString;
}

var hasRequiredStringify;

function requireStringify () {
	if (hasRequiredStringify) return stringify;
	hasRequiredStringify = 1;

	var anchors = requireAnchors();
	var identity = requireIdentity();
	var stringifyComment = requireStringifyComment();
	var stringifyString = requireStringifyString();

	function createStringifyContext(doc, options) {
	    const opt = Object.assign({
	        blockQuote: true,
	        commentString: stringifyComment.stringifyComment,
	        defaultKeyType: null,
	        defaultStringType: 'PLAIN',
	        directives: null,
	        doubleQuotedAsJSON: false,
	        doubleQuotedMinMultiLineLength: 40,
	        falseStr: 'false',
	        flowCollectionPadding: true,
	        indentSeq: true,
	        lineWidth: 80,
	        minContentWidth: 20,
	        nullStr: 'null',
	        simpleKeys: false,
	        singleQuote: null,
	        trailingComma: false,
	        trueStr: 'true',
	        verifyAliasOrder: true
	    }, doc.schema.toStringOptions, options);
	    let inFlow;
	    switch (opt.collectionStyle) {
	        case 'block':
	            inFlow = false;
	            break;
	        case 'flow':
	            inFlow = true;
	            break;
	        default:
	            inFlow = null;
	    }
	    return {
	        anchors: new Set(),
	        doc,
	        flowCollectionPadding: opt.flowCollectionPadding ? ' ' : '',
	        indent: '',
	        indentStep: typeof opt.indent === 'number' ? ' '.repeat(opt.indent) : '  ',
	        inFlow,
	        options: opt
	    };
	}
	function getTagObject(tags, item) {
	    if (item.tag) {
	        const match = tags.filter(t => t.tag === item.tag);
	        if (match.length > 0)
	            return match.find(t => t.format === item.format) ?? match[0];
	    }
	    let tagObj = undefined;
	    let obj;
	    if (identity.isScalar(item)) {
	        obj = item.value;
	        let match = tags.filter(t => t.identify?.(obj));
	        if (match.length > 1) {
	            const testMatch = match.filter(t => t.test);
	            if (testMatch.length > 0)
	                match = testMatch;
	        }
	        tagObj =
	            match.find(t => t.format === item.format) ?? match.find(t => !t.format);
	    }
	    else {
	        obj = item;
	        tagObj = tags.find(t => t.nodeClass && obj instanceof t.nodeClass);
	    }
	    if (!tagObj) {
	        const name = obj?.constructor?.name ?? (obj === null ? 'null' : typeof obj);
	        throw new Error(`Tag not resolved for ${name} value`);
	    }
	    return tagObj;
	}
	// needs to be called before value stringifier to allow for circular anchor refs
	function stringifyProps(node, tagObj, { anchors: anchors$1, doc }) {
	    if (!doc.directives)
	        return '';
	    const props = [];
	    const anchor = (identity.isScalar(node) || identity.isCollection(node)) && node.anchor;
	    if (anchor && anchors.anchorIsValid(anchor)) {
	        anchors$1.add(anchor);
	        props.push(`&${anchor}`);
	    }
	    const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
	    if (tag)
	        props.push(doc.directives.tagString(tag));
	    return props.join(' ');
	}
	function stringify$1(item, ctx, onComment, onChompKeep) {
	    if (identity.isPair(item))
	        return item.toString(ctx, onComment, onChompKeep);
	    if (identity.isAlias(item)) {
	        if (ctx.doc.directives)
	            return item.toString(ctx);
	        if (ctx.resolvedAliases?.has(item)) {
	            throw new TypeError(`Cannot stringify circular structure without alias nodes`);
	        }
	        else {
	            if (ctx.resolvedAliases)
	                ctx.resolvedAliases.add(item);
	            else
	                ctx.resolvedAliases = new Set([item]);
	            item = item.resolve(ctx.doc);
	        }
	    }
	    let tagObj = undefined;
	    const node = identity.isNode(item)
	        ? item
	        : ctx.doc.createNode(item, { onTagObj: o => (tagObj = o) });
	    tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
	    const props = stringifyProps(node, tagObj, ctx);
	    if (props.length > 0)
	        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
	    const str = typeof tagObj.stringify === 'function'
	        ? tagObj.stringify(node, ctx, onComment, onChompKeep)
	        : identity.isScalar(node)
	            ? stringifyString.stringifyString(node, ctx, onComment, onChompKeep)
	            : node.toString(ctx, onComment, onChompKeep);
	    if (!props)
	        return str;
	    return identity.isScalar(node) || str[0] === '{' || str[0] === '['
	        ? `${props} ${str}`
	        : `${props}\n${ctx.indent}${str}`;
	}

	stringify.createStringifyContext = createStringifyContext;
	stringify.stringify = stringify$1;
	return stringify;
}

var hasRequiredStringifyPair;

function requireStringifyPair () {
	if (hasRequiredStringifyPair) return stringifyPair;
	hasRequiredStringifyPair = 1;

	var identity = requireIdentity();
	var Scalar = requireScalar();
	var stringify = requireStringify();
	var stringifyComment = requireStringifyComment();

	function stringifyPair$1({ key, value }, ctx, onComment, onChompKeep) {
	    const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
	    let keyComment = (identity.isNode(key) && key.comment) || null;
	    if (simpleKeys) {
	        if (keyComment) {
	            throw new Error('With simple keys, key nodes cannot have comments');
	        }
	        if (identity.isCollection(key) || (!identity.isNode(key) && typeof key === 'object')) {
	            const msg = 'With simple keys, collection cannot be used as a key value';
	            throw new Error(msg);
	        }
	    }
	    let explicitKey = !simpleKeys &&
	        (!key ||
	            (keyComment && value == null && !ctx.inFlow) ||
	            identity.isCollection(key) ||
	            (identity.isScalar(key)
	                ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL
	                : typeof key === 'object'));
	    ctx = Object.assign({}, ctx, {
	        allNullValues: false,
	        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
	        indent: indent + indentStep
	    });
	    let keyCommentDone = false;
	    let chompKeep = false;
	    let str = stringify.stringify(key, ctx, () => (keyCommentDone = true), () => (chompKeep = true));
	    if (!explicitKey && !ctx.inFlow && str.length > 1024) {
	        if (simpleKeys)
	            throw new Error('With simple keys, single line scalar must not span more than 1024 characters');
	        explicitKey = true;
	    }
	    if (ctx.inFlow) {
	        if (allNullValues || value == null) {
	            if (keyCommentDone && onComment)
	                onComment();
	            return str === '' ? '?' : explicitKey ? `? ${str}` : str;
	        }
	    }
	    else if ((allNullValues && !simpleKeys) || (value == null && explicitKey)) {
	        str = `? ${str}`;
	        if (keyComment && !keyCommentDone) {
	            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
	        }
	        else if (chompKeep && onChompKeep)
	            onChompKeep();
	        return str;
	    }
	    if (keyCommentDone)
	        keyComment = null;
	    if (explicitKey) {
	        if (keyComment)
	            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
	        str = `? ${str}\n${indent}:`;
	    }
	    else {
	        str = `${str}:`;
	        if (keyComment)
	            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
	    }
	    let vsb, vcb, valueComment;
	    if (identity.isNode(value)) {
	        vsb = !!value.spaceBefore;
	        vcb = value.commentBefore;
	        valueComment = value.comment;
	    }
	    else {
	        vsb = false;
	        vcb = null;
	        valueComment = null;
	        if (value && typeof value === 'object')
	            value = doc.createNode(value);
	    }
	    ctx.implicitKey = false;
	    if (!explicitKey && !keyComment && identity.isScalar(value))
	        ctx.indentAtStart = str.length + 1;
	    chompKeep = false;
	    if (!indentSeq &&
	        indentStep.length >= 2 &&
	        !ctx.inFlow &&
	        !explicitKey &&
	        identity.isSeq(value) &&
	        !value.flow &&
	        !value.tag &&
	        !value.anchor) {
	        // If indentSeq === false, consider '- ' as part of indentation where possible
	        ctx.indent = ctx.indent.substring(2);
	    }
	    let valueCommentDone = false;
	    const valueStr = stringify.stringify(value, ctx, () => (valueCommentDone = true), () => (chompKeep = true));
	    let ws = ' ';
	    if (keyComment || vsb || vcb) {
	        ws = vsb ? '\n' : '';
	        if (vcb) {
	            const cs = commentString(vcb);
	            ws += `\n${stringifyComment.indentComment(cs, ctx.indent)}`;
	        }
	        if (valueStr === '' && !ctx.inFlow) {
	            if (ws === '\n' && valueComment)
	                ws = '\n\n';
	        }
	        else {
	            ws += `\n${ctx.indent}`;
	        }
	    }
	    else if (!explicitKey && identity.isCollection(value)) {
	        const vs0 = valueStr[0];
	        const nl0 = valueStr.indexOf('\n');
	        const hasNewline = nl0 !== -1;
	        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
	        if (hasNewline || !flow) {
	            let hasPropsLine = false;
	            if (hasNewline && (vs0 === '&' || vs0 === '!')) {
	                let sp0 = valueStr.indexOf(' ');
	                if (vs0 === '&' &&
	                    sp0 !== -1 &&
	                    sp0 < nl0 &&
	                    valueStr[sp0 + 1] === '!') {
	                    sp0 = valueStr.indexOf(' ', sp0 + 1);
	                }
	                if (sp0 === -1 || nl0 < sp0)
	                    hasPropsLine = true;
	            }
	            if (!hasPropsLine)
	                ws = `\n${ctx.indent}`;
	        }
	    }
	    else if (valueStr === '' || valueStr[0] === '\n') {
	        ws = '';
	    }
	    str += ws + valueStr;
	    if (ctx.inFlow) {
	        if (valueCommentDone && onComment)
	            onComment();
	    }
	    else if (valueComment && !valueCommentDone) {
	        str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
	    }
	    else if (chompKeep && onChompKeep) {
	        onChompKeep();
	    }
	    return str;
	}

	stringifyPair.stringifyPair = stringifyPair$1;
	return stringifyPair;
}

var addPairToJSMap = {};

var log = {};

var hasRequiredLog;

function requireLog () {
	if (hasRequiredLog) return log;
	hasRequiredLog = 1;

	var node_process = require$$0;

	function debug(logLevel, ...messages) {
	    if (logLevel === 'debug')
	        console.log(...messages);
	}
	function warn(logLevel, warning) {
	    if (logLevel === 'debug' || logLevel === 'warn') {
	        if (typeof node_process.emitWarning === 'function')
	            node_process.emitWarning(warning);
	        else
	            console.warn(warning);
	    }
	}

	log.debug = debug;
	log.warn = warn;
	return log;
}

var merge$1 = {};

var hasRequiredMerge;

function requireMerge () {
	if (hasRequiredMerge) return merge$1;
	hasRequiredMerge = 1;

	var identity = requireIdentity();
	var Scalar = requireScalar();

	// If the value associated with a merge key is a single mapping node, each of
	// its key/value pairs is inserted into the current mapping, unless the key
	// already exists in it. If the value associated with the merge key is a
	// sequence, then this sequence is expected to contain mapping nodes and each
	// of these nodes is merged in turn according to its order in the sequence.
	// Keys in mapping nodes earlier in the sequence override keys specified in
	// later mapping nodes. -- http://yaml.org/type/merge.html
	const MERGE_KEY = '<<';
	const merge = {
	    identify: value => value === MERGE_KEY ||
	        (typeof value === 'symbol' && value.description === MERGE_KEY),
	    default: 'key',
	    tag: 'tag:yaml.org,2002:merge',
	    test: /^<<$/,
	    resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
	        addToJSMap: addMergeToJSMap
	    }),
	    stringify: () => MERGE_KEY
	};
	const isMergeKey = (ctx, key) => (merge.identify(key) ||
	    (identity.isScalar(key) &&
	        (!key.type || key.type === Scalar.Scalar.PLAIN) &&
	        merge.identify(key.value))) &&
	    ctx?.doc.schema.tags.some(tag => tag.tag === merge.tag && tag.default);
	function addMergeToJSMap(ctx, map, value) {
	    const source = resolveAliasValue(ctx, value);
	    if (identity.isSeq(source))
	        for (const it of source.items)
	            mergeValue(ctx, map, it);
	    else if (Array.isArray(source))
	        for (const it of source)
	            mergeValue(ctx, map, it);
	    else
	        mergeValue(ctx, map, source);
	}
	function mergeValue(ctx, map, value) {
	    const source = resolveAliasValue(ctx, value);
	    if (!identity.isMap(source))
	        throw new Error('Merge sources must be maps or map aliases');
	    const srcMap = source.toJSON(null, ctx, Map);
	    for (const [key, value] of srcMap) {
	        if (map instanceof Map) {
	            if (!map.has(key))
	                map.set(key, value);
	        }
	        else if (map instanceof Set) {
	            map.add(key);
	        }
	        else if (!Object.prototype.hasOwnProperty.call(map, key)) {
	            Object.defineProperty(map, key, {
	                value,
	                writable: true,
	                enumerable: true,
	                configurable: true
	            });
	        }
	    }
	    return map;
	}
	function resolveAliasValue(ctx, value) {
	    return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
	}

	merge$1.addMergeToJSMap = addMergeToJSMap;
	merge$1.isMergeKey = isMergeKey;
	merge$1.merge = merge;
	return merge$1;
}

var hasRequiredAddPairToJSMap;

function requireAddPairToJSMap () {
	if (hasRequiredAddPairToJSMap) return addPairToJSMap;
	hasRequiredAddPairToJSMap = 1;

	var log = requireLog();
	var merge = requireMerge();
	var stringify = requireStringify();
	var identity = requireIdentity();
	var toJS = requireToJS();

	function addPairToJSMap$1(ctx, map, { key, value }) {
	    if (identity.isNode(key) && key.addToJSMap)
	        key.addToJSMap(ctx, map, value);
	    // TODO: Should drop this special case for bare << handling
	    else if (merge.isMergeKey(ctx, key))
	        merge.addMergeToJSMap(ctx, map, value);
	    else {
	        const jsKey = toJS.toJS(key, '', ctx);
	        if (map instanceof Map) {
	            map.set(jsKey, toJS.toJS(value, jsKey, ctx));
	        }
	        else if (map instanceof Set) {
	            map.add(jsKey);
	        }
	        else {
	            const stringKey = stringifyKey(key, jsKey, ctx);
	            const jsValue = toJS.toJS(value, stringKey, ctx);
	            if (stringKey in map)
	                Object.defineProperty(map, stringKey, {
	                    value: jsValue,
	                    writable: true,
	                    enumerable: true,
	                    configurable: true
	                });
	            else
	                map[stringKey] = jsValue;
	        }
	    }
	    return map;
	}
	function stringifyKey(key, jsKey, ctx) {
	    if (jsKey === null)
	        return '';
	    // eslint-disable-next-line @typescript-eslint/no-base-to-string
	    if (typeof jsKey !== 'object')
	        return String(jsKey);
	    if (identity.isNode(key) && ctx?.doc) {
	        const strCtx = stringify.createStringifyContext(ctx.doc, {});
	        strCtx.anchors = new Set();
	        for (const node of ctx.anchors.keys())
	            strCtx.anchors.add(node.anchor);
	        strCtx.inFlow = true;
	        strCtx.inStringifyKey = true;
	        const strKey = key.toString(strCtx);
	        if (!ctx.mapKeyWarned) {
	            let jsonStr = JSON.stringify(strKey);
	            if (jsonStr.length > 40)
	                jsonStr = jsonStr.substring(0, 36) + '..."';
	            log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
	            ctx.mapKeyWarned = true;
	        }
	        return strKey;
	    }
	    return JSON.stringify(jsKey);
	}

	addPairToJSMap.addPairToJSMap = addPairToJSMap$1;
	return addPairToJSMap;
}

var hasRequiredPair;

function requirePair () {
	if (hasRequiredPair) return Pair;
	hasRequiredPair = 1;

	var createNode = requireCreateNode();
	var stringifyPair = requireStringifyPair();
	var addPairToJSMap = requireAddPairToJSMap();
	var identity = requireIdentity();

	function createPair(key, value, ctx) {
	    const k = createNode.createNode(key, undefined, ctx);
	    const v = createNode.createNode(value, undefined, ctx);
	    return new Pair$1(k, v);
	}
	let Pair$1 = class Pair {
	    constructor(key, value = null) {
	        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
	        this.key = key;
	        this.value = value;
	    }
	    clone(schema) {
	        let { key, value } = this;
	        if (identity.isNode(key))
	            key = key.clone(schema);
	        if (identity.isNode(value))
	            value = value.clone(schema);
	        return new Pair(key, value);
	    }
	    toJSON(_, ctx) {
	        const pair = ctx?.mapAsMap ? new Map() : {};
	        return addPairToJSMap.addPairToJSMap(ctx, pair, this);
	    }
	    toString(ctx, onComment, onChompKeep) {
	        return ctx?.doc
	            ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep)
	            : JSON.stringify(this);
	    }
	};

	Pair.Pair = Pair$1;
	Pair.createPair = createPair;
	return Pair;
}

var Schema = {};

var map = {};

var YAMLMap = {};

var stringifyCollection = {};

var hasRequiredStringifyCollection;

function requireStringifyCollection () {
	if (hasRequiredStringifyCollection) return stringifyCollection;
	hasRequiredStringifyCollection = 1;

	var identity = requireIdentity();
	var stringify = requireStringify();
	var stringifyComment = requireStringifyComment();

	function stringifyCollection$1(collection, ctx, options) {
	    const flow = ctx.inFlow ?? collection.flow;
	    const stringify = flow ? stringifyFlowCollection : stringifyBlockCollection;
	    return stringify(collection, ctx, options);
	}
	function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
	    const { indent, options: { commentString } } = ctx;
	    const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
	    let chompKeep = false; // flag for the preceding node's status
	    const lines = [];
	    for (let i = 0; i < items.length; ++i) {
	        const item = items[i];
	        let comment = null;
	        if (identity.isNode(item)) {
	            if (!chompKeep && item.spaceBefore)
	                lines.push('');
	            addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
	            if (item.comment)
	                comment = item.comment;
	        }
	        else if (identity.isPair(item)) {
	            const ik = identity.isNode(item.key) ? item.key : null;
	            if (ik) {
	                if (!chompKeep && ik.spaceBefore)
	                    lines.push('');
	                addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
	            }
	        }
	        chompKeep = false;
	        let str = stringify.stringify(item, itemCtx, () => (comment = null), () => (chompKeep = true));
	        if (comment)
	            str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
	        if (chompKeep && comment)
	            chompKeep = false;
	        lines.push(blockItemPrefix + str);
	    }
	    let str;
	    if (lines.length === 0) {
	        str = flowChars.start + flowChars.end;
	    }
	    else {
	        str = lines[0];
	        for (let i = 1; i < lines.length; ++i) {
	            const line = lines[i];
	            str += line ? `\n${indent}${line}` : '\n';
	        }
	    }
	    if (comment) {
	        str += '\n' + stringifyComment.indentComment(commentString(comment), indent);
	        if (onComment)
	            onComment();
	    }
	    else if (chompKeep && onChompKeep)
	        onChompKeep();
	    return str;
	}
	function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
	    const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
	    itemIndent += indentStep;
	    const itemCtx = Object.assign({}, ctx, {
	        indent: itemIndent,
	        inFlow: true,
	        type: null
	    });
	    let reqNewline = false;
	    let linesAtValue = 0;
	    const lines = [];
	    for (let i = 0; i < items.length; ++i) {
	        const item = items[i];
	        let comment = null;
	        if (identity.isNode(item)) {
	            if (item.spaceBefore)
	                lines.push('');
	            addCommentBefore(ctx, lines, item.commentBefore, false);
	            if (item.comment)
	                comment = item.comment;
	        }
	        else if (identity.isPair(item)) {
	            const ik = identity.isNode(item.key) ? item.key : null;
	            if (ik) {
	                if (ik.spaceBefore)
	                    lines.push('');
	                addCommentBefore(ctx, lines, ik.commentBefore, false);
	                if (ik.comment)
	                    reqNewline = true;
	            }
	            const iv = identity.isNode(item.value) ? item.value : null;
	            if (iv) {
	                if (iv.comment)
	                    comment = iv.comment;
	                if (iv.commentBefore)
	                    reqNewline = true;
	            }
	            else if (item.value == null && ik?.comment) {
	                comment = ik.comment;
	            }
	        }
	        if (comment)
	            reqNewline = true;
	        let str = stringify.stringify(item, itemCtx, () => (comment = null));
	        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes('\n'));
	        if (i < items.length - 1) {
	            str += ',';
	        }
	        else if (ctx.options.trailingComma) {
	            if (ctx.options.lineWidth > 0) {
	                reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) +
	                    (str.length + 2) >
	                    ctx.options.lineWidth);
	            }
	            if (reqNewline) {
	                str += ',';
	            }
	        }
	        if (comment)
	            str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
	        lines.push(str);
	        linesAtValue = lines.length;
	    }
	    const { start, end } = flowChars;
	    if (lines.length === 0) {
	        return start + end;
	    }
	    else {
	        if (!reqNewline) {
	            const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
	            reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
	        }
	        if (reqNewline) {
	            let str = start;
	            for (const line of lines)
	                str += line ? `\n${indentStep}${indent}${line}` : '\n';
	            return `${str}\n${indent}${end}`;
	        }
	        else {
	            return `${start}${fcPadding}${lines.join(' ')}${fcPadding}${end}`;
	        }
	    }
	}
	function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
	    if (comment && chompKeep)
	        comment = comment.replace(/^\n+/, '');
	    if (comment) {
	        const ic = stringifyComment.indentComment(commentString(comment), indent);
	        lines.push(ic.trimStart()); // Avoid double indent on first line
	    }
	}

	stringifyCollection.stringifyCollection = stringifyCollection$1;
	return stringifyCollection;
}

var hasRequiredYAMLMap;

function requireYAMLMap () {
	if (hasRequiredYAMLMap) return YAMLMap;
	hasRequiredYAMLMap = 1;

	var stringifyCollection = requireStringifyCollection();
	var addPairToJSMap = requireAddPairToJSMap();
	var Collection = requireCollection();
	var identity = requireIdentity();
	var Pair = requirePair();
	var Scalar = requireScalar();

	function findPair(items, key) {
	    const k = identity.isScalar(key) ? key.value : key;
	    for (const it of items) {
	        if (identity.isPair(it)) {
	            if (it.key === key || it.key === k)
	                return it;
	            if (identity.isScalar(it.key) && it.key.value === k)
	                return it;
	        }
	    }
	    return undefined;
	}
	let YAMLMap$1 = class YAMLMap extends Collection.Collection {
	    static get tagName() {
	        return 'tag:yaml.org,2002:map';
	    }
	    constructor(schema) {
	        super(identity.MAP, schema);
	        this.items = [];
	    }
	    /**
	     * A generic collection parsing method that can be extended
	     * to other node classes that inherit from YAMLMap
	     */
	    static from(schema, obj, ctx) {
	        const { keepUndefined, replacer } = ctx;
	        const map = new this(schema);
	        const add = (key, value) => {
	            if (typeof replacer === 'function')
	                value = replacer.call(obj, key, value);
	            else if (Array.isArray(replacer) && !replacer.includes(key))
	                return;
	            if (value !== undefined || keepUndefined)
	                map.items.push(Pair.createPair(key, value, ctx));
	        };
	        if (obj instanceof Map) {
	            for (const [key, value] of obj)
	                add(key, value);
	        }
	        else if (obj && typeof obj === 'object') {
	            for (const key of Object.keys(obj))
	                add(key, obj[key]);
	        }
	        if (typeof schema.sortMapEntries === 'function') {
	            map.items.sort(schema.sortMapEntries);
	        }
	        return map;
	    }
	    /**
	     * Adds a value to the collection.
	     *
	     * @param overwrite - If not set `true`, using a key that is already in the
	     *   collection will throw. Otherwise, overwrites the previous value.
	     */
	    add(pair, overwrite) {
	        let _pair;
	        if (identity.isPair(pair))
	            _pair = pair;
	        else if (!pair || typeof pair !== 'object' || !('key' in pair)) {
	            // In TypeScript, this never happens.
	            _pair = new Pair.Pair(pair, pair?.value);
	        }
	        else
	            _pair = new Pair.Pair(pair.key, pair.value);
	        const prev = findPair(this.items, _pair.key);
	        const sortEntries = this.schema?.sortMapEntries;
	        if (prev) {
	            if (!overwrite)
	                throw new Error(`Key ${_pair.key} already set`);
	            // For scalars, keep the old node & its comments and anchors
	            if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
	                prev.value.value = _pair.value;
	            else
	                prev.value = _pair.value;
	        }
	        else if (sortEntries) {
	            const i = this.items.findIndex(item => sortEntries(_pair, item) < 0);
	            if (i === -1)
	                this.items.push(_pair);
	            else
	                this.items.splice(i, 0, _pair);
	        }
	        else {
	            this.items.push(_pair);
	        }
	    }
	    delete(key) {
	        const it = findPair(this.items, key);
	        if (!it)
	            return false;
	        const del = this.items.splice(this.items.indexOf(it), 1);
	        return del.length > 0;
	    }
	    get(key, keepScalar) {
	        const it = findPair(this.items, key);
	        const node = it?.value;
	        return (!keepScalar && identity.isScalar(node) ? node.value : node) ?? undefined;
	    }
	    has(key) {
	        return !!findPair(this.items, key);
	    }
	    set(key, value) {
	        this.add(new Pair.Pair(key, value), true);
	    }
	    /**
	     * @param ctx - Conversion context, originally set in Document#toJS()
	     * @param {Class} Type - If set, forces the returned collection type
	     * @returns Instance of Type, Map, or Object
	     */
	    toJSON(_, ctx, Type) {
	        const map = Type ? new Type() : ctx?.mapAsMap ? new Map() : {};
	        if (ctx?.onCreate)
	            ctx.onCreate(map);
	        for (const item of this.items)
	            addPairToJSMap.addPairToJSMap(ctx, map, item);
	        return map;
	    }
	    toString(ctx, onComment, onChompKeep) {
	        if (!ctx)
	            return JSON.stringify(this);
	        for (const item of this.items) {
	            if (!identity.isPair(item))
	                throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
	        }
	        if (!ctx.allNullValues && this.hasAllNullValues(false))
	            ctx = Object.assign({}, ctx, { allNullValues: true });
	        return stringifyCollection.stringifyCollection(this, ctx, {
	            blockItemPrefix: '',
	            flowChars: { start: '{', end: '}' },
	            itemIndent: ctx.indent || '',
	            onChompKeep,
	            onComment
	        });
	    }
	};

	YAMLMap.YAMLMap = YAMLMap$1;
	YAMLMap.findPair = findPair;
	return YAMLMap;
}

var hasRequiredMap;

function requireMap () {
	if (hasRequiredMap) return map;
	hasRequiredMap = 1;

	var identity = requireIdentity();
	var YAMLMap = requireYAMLMap();

	const map$1 = {
	    collection: 'map',
	    default: true,
	    nodeClass: YAMLMap.YAMLMap,
	    tag: 'tag:yaml.org,2002:map',
	    resolve(map, onError) {
	        if (!identity.isMap(map))
	            onError('Expected a mapping for this tag');
	        return map;
	    },
	    createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
	};

	map.map = map$1;
	return map;
}

var seq = {};

var YAMLSeq = {};

var hasRequiredYAMLSeq;

function requireYAMLSeq () {
	if (hasRequiredYAMLSeq) return YAMLSeq;
	hasRequiredYAMLSeq = 1;

	var createNode = requireCreateNode();
	var stringifyCollection = requireStringifyCollection();
	var Collection = requireCollection();
	var identity = requireIdentity();
	var Scalar = requireScalar();
	var toJS = requireToJS();

	let YAMLSeq$1 = class YAMLSeq extends Collection.Collection {
	    static get tagName() {
	        return 'tag:yaml.org,2002:seq';
	    }
	    constructor(schema) {
	        super(identity.SEQ, schema);
	        this.items = [];
	    }
	    add(value) {
	        this.items.push(value);
	    }
	    /**
	     * Removes a value from the collection.
	     *
	     * `key` must contain a representation of an integer for this to succeed.
	     * It may be wrapped in a `Scalar`.
	     *
	     * @returns `true` if the item was found and removed.
	     */
	    delete(key) {
	        const idx = asItemIndex(key);
	        if (typeof idx !== 'number')
	            return false;
	        const del = this.items.splice(idx, 1);
	        return del.length > 0;
	    }
	    get(key, keepScalar) {
	        const idx = asItemIndex(key);
	        if (typeof idx !== 'number')
	            return undefined;
	        const it = this.items[idx];
	        return !keepScalar && identity.isScalar(it) ? it.value : it;
	    }
	    /**
	     * Checks if the collection includes a value with the key `key`.
	     *
	     * `key` must contain a representation of an integer for this to succeed.
	     * It may be wrapped in a `Scalar`.
	     */
	    has(key) {
	        const idx = asItemIndex(key);
	        return typeof idx === 'number' && idx < this.items.length;
	    }
	    /**
	     * Sets a value in this collection. For `!!set`, `value` needs to be a
	     * boolean to add/remove the item from the set.
	     *
	     * If `key` does not contain a representation of an integer, this will throw.
	     * It may be wrapped in a `Scalar`.
	     */
	    set(key, value) {
	        const idx = asItemIndex(key);
	        if (typeof idx !== 'number')
	            throw new Error(`Expected a valid index, not ${key}.`);
	        const prev = this.items[idx];
	        if (identity.isScalar(prev) && Scalar.isScalarValue(value))
	            prev.value = value;
	        else
	            this.items[idx] = value;
	    }
	    toJSON(_, ctx) {
	        const seq = [];
	        if (ctx?.onCreate)
	            ctx.onCreate(seq);
	        let i = 0;
	        for (const item of this.items)
	            seq.push(toJS.toJS(item, String(i++), ctx));
	        return seq;
	    }
	    toString(ctx, onComment, onChompKeep) {
	        if (!ctx)
	            return JSON.stringify(this);
	        return stringifyCollection.stringifyCollection(this, ctx, {
	            blockItemPrefix: '- ',
	            flowChars: { start: '[', end: ']' },
	            itemIndent: (ctx.indent || '') + '  ',
	            onChompKeep,
	            onComment
	        });
	    }
	    static from(schema, obj, ctx) {
	        const { replacer } = ctx;
	        const seq = new this(schema);
	        if (obj && Symbol.iterator in Object(obj)) {
	            let i = 0;
	            for (let it of obj) {
	                if (typeof replacer === 'function') {
	                    const key = obj instanceof Set ? it : String(i++);
	                    it = replacer.call(obj, key, it);
	                }
	                seq.items.push(createNode.createNode(it, undefined, ctx));
	            }
	        }
	        return seq;
	    }
	};
	function asItemIndex(key) {
	    let idx = identity.isScalar(key) ? key.value : key;
	    if (idx && typeof idx === 'string')
	        idx = Number(idx);
	    return typeof idx === 'number' && Number.isInteger(idx) && idx >= 0
	        ? idx
	        : null;
	}

	YAMLSeq.YAMLSeq = YAMLSeq$1;
	return YAMLSeq;
}

var hasRequiredSeq;

function requireSeq () {
	if (hasRequiredSeq) return seq;
	hasRequiredSeq = 1;

	var identity = requireIdentity();
	var YAMLSeq = requireYAMLSeq();

	const seq$1 = {
	    collection: 'seq',
	    default: true,
	    nodeClass: YAMLSeq.YAMLSeq,
	    tag: 'tag:yaml.org,2002:seq',
	    resolve(seq, onError) {
	        if (!identity.isSeq(seq))
	            onError('Expected a sequence for this tag');
	        return seq;
	    },
	    createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
	};

	seq.seq = seq$1;
	return seq;
}

var string = {};

var hasRequiredString;

function requireString () {
	if (hasRequiredString) return string;
	hasRequiredString = 1;

	var stringifyString = requireStringifyString();

	const string$1 = {
	    identify: value => typeof value === 'string',
	    default: true,
	    tag: 'tag:yaml.org,2002:str',
	    resolve: str => str,
	    stringify(item, ctx, onComment, onChompKeep) {
	        ctx = Object.assign({ actualString: true }, ctx);
	        return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
	    }
	};

	string.string = string$1;
	return string;
}

var tags = {};

var _null = {};

var hasRequired_null;

function require_null () {
	if (hasRequired_null) return _null;
	hasRequired_null = 1;

	var Scalar = requireScalar();

	const nullTag = {
	    identify: value => value == null,
	    createNode: () => new Scalar.Scalar(null),
	    default: true,
	    tag: 'tag:yaml.org,2002:null',
	    test: /^(?:~|[Nn]ull|NULL)?$/,
	    resolve: () => new Scalar.Scalar(null),
	    stringify: ({ source }, ctx) => typeof source === 'string' && nullTag.test.test(source)
	        ? source
	        : ctx.options.nullStr
	};

	_null.nullTag = nullTag;
	return _null;
}

var bool$1 = {};

var hasRequiredBool$1;

function requireBool$1 () {
	if (hasRequiredBool$1) return bool$1;
	hasRequiredBool$1 = 1;

	var Scalar = requireScalar();

	const boolTag = {
	    identify: value => typeof value === 'boolean',
	    default: true,
	    tag: 'tag:yaml.org,2002:bool',
	    test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
	    resolve: str => new Scalar.Scalar(str[0] === 't' || str[0] === 'T'),
	    stringify({ source, value }, ctx) {
	        if (source && boolTag.test.test(source)) {
	            const sv = source[0] === 't' || source[0] === 'T';
	            if (value === sv)
	                return source;
	        }
	        return value ? ctx.options.trueStr : ctx.options.falseStr;
	    }
	};

	bool$1.boolTag = boolTag;
	return bool$1;
}

var float$1 = {};

var stringifyNumber = {};

var hasRequiredStringifyNumber;

function requireStringifyNumber () {
	if (hasRequiredStringifyNumber) return stringifyNumber;
	hasRequiredStringifyNumber = 1;

	function stringifyNumber$1({ format, minFractionDigits, tag, value }) {
	    if (typeof value === 'bigint')
	        return String(value);
	    const num = typeof value === 'number' ? value : Number(value);
	    if (!isFinite(num))
	        return isNaN(num) ? '.nan' : num < 0 ? '-.inf' : '.inf';
	    let n = Object.is(value, -0) ? '-0' : JSON.stringify(value);
	    if (!format &&
	        minFractionDigits &&
	        (!tag || tag === 'tag:yaml.org,2002:float') &&
	        /^-?\d/.test(n) &&
	        !n.includes('e')) {
	        let i = n.indexOf('.');
	        if (i < 0) {
	            i = n.length;
	            n += '.';
	        }
	        let d = minFractionDigits - (n.length - i - 1);
	        while (d-- > 0)
	            n += '0';
	    }
	    return n;
	}

	stringifyNumber.stringifyNumber = stringifyNumber$1;
	return stringifyNumber;
}

var hasRequiredFloat$1;

function requireFloat$1 () {
	if (hasRequiredFloat$1) return float$1;
	hasRequiredFloat$1 = 1;

	var Scalar = requireScalar();
	var stringifyNumber = requireStringifyNumber();

	const floatNaN = {
	    identify: value => typeof value === 'number',
	    default: true,
	    tag: 'tag:yaml.org,2002:float',
	    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
	    resolve: str => str.slice(-3).toLowerCase() === 'nan'
	        ? NaN
	        : str[0] === '-'
	            ? Number.NEGATIVE_INFINITY
	            : Number.POSITIVE_INFINITY,
	    stringify: stringifyNumber.stringifyNumber
	};
	const floatExp = {
	    identify: value => typeof value === 'number',
	    default: true,
	    tag: 'tag:yaml.org,2002:float',
	    format: 'EXP',
	    test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
	    resolve: str => parseFloat(str),
	    stringify(node) {
	        const num = Number(node.value);
	        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
	    }
	};
	const float = {
	    identify: value => typeof value === 'number',
	    default: true,
	    tag: 'tag:yaml.org,2002:float',
	    test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
	    resolve(str) {
	        const node = new Scalar.Scalar(parseFloat(str));
	        const dot = str.indexOf('.');
	        if (dot !== -1 && str[str.length - 1] === '0')
	            node.minFractionDigits = str.length - dot - 1;
	        return node;
	    },
	    stringify: stringifyNumber.stringifyNumber
	};

	float$1.float = float;
	float$1.floatExp = floatExp;
	float$1.floatNaN = floatNaN;
	return float$1;
}

var int$1 = {};

var hasRequiredInt$1;

function requireInt$1 () {
	if (hasRequiredInt$1) return int$1;
	hasRequiredInt$1 = 1;

	var stringifyNumber = requireStringifyNumber();

	const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
	const intResolve = (str, offset, radix, { intAsBigInt }) => (intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix));
	function intStringify(node, radix, prefix) {
	    const { value } = node;
	    if (intIdentify(value) && value >= 0)
	        return prefix + value.toString(radix);
	    return stringifyNumber.stringifyNumber(node);
	}
	const intOct = {
	    identify: value => intIdentify(value) && value >= 0,
	    default: true,
	    tag: 'tag:yaml.org,2002:int',
	    format: 'OCT',
	    test: /^0o[0-7]+$/,
	    resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
	    stringify: node => intStringify(node, 8, '0o')
	};
	const int = {
	    identify: intIdentify,
	    default: true,
	    tag: 'tag:yaml.org,2002:int',
	    test: /^[-+]?[0-9]+$/,
	    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
	    stringify: stringifyNumber.stringifyNumber
	};
	const intHex = {
	    identify: value => intIdentify(value) && value >= 0,
	    default: true,
	    tag: 'tag:yaml.org,2002:int',
	    format: 'HEX',
	    test: /^0x[0-9a-fA-F]+$/,
	    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
	    stringify: node => intStringify(node, 16, '0x')
	};

	int$1.int = int;
	int$1.intHex = intHex;
	int$1.intOct = intOct;
	return int$1;
}

var schema$2 = {};

var hasRequiredSchema$3;

function requireSchema$3 () {
	if (hasRequiredSchema$3) return schema$2;
	hasRequiredSchema$3 = 1;

	var map = requireMap();
	var _null = require_null();
	var seq = requireSeq();
	var string = requireString();
	var bool = requireBool$1();
	var float = requireFloat$1();
	var int = requireInt$1();

	const schema = [
	    map.map,
	    seq.seq,
	    string.string,
	    _null.nullTag,
	    bool.boolTag,
	    int.intOct,
	    int.int,
	    int.intHex,
	    float.floatNaN,
	    float.floatExp,
	    float.float
	];

	schema$2.schema = schema;
	return schema$2;
}

var schema$1 = {};

var hasRequiredSchema$2;

function requireSchema$2 () {
	if (hasRequiredSchema$2) return schema$1;
	hasRequiredSchema$2 = 1;

	var Scalar = requireScalar();
	var map = requireMap();
	var seq = requireSeq();

	function intIdentify(value) {
	    return typeof value === 'bigint' || Number.isInteger(value);
	}
	const stringifyJSON = ({ value }) => JSON.stringify(value);
	const jsonScalars = [
	    {
	        identify: value => typeof value === 'string',
	        default: true,
	        tag: 'tag:yaml.org,2002:str',
	        resolve: str => str,
	        stringify: stringifyJSON
	    },
	    {
	        identify: value => value == null,
	        createNode: () => new Scalar.Scalar(null),
	        default: true,
	        tag: 'tag:yaml.org,2002:null',
	        test: /^null$/,
	        resolve: () => null,
	        stringify: stringifyJSON
	    },
	    {
	        identify: value => typeof value === 'boolean',
	        default: true,
	        tag: 'tag:yaml.org,2002:bool',
	        test: /^true$|^false$/,
	        resolve: str => str === 'true',
	        stringify: stringifyJSON
	    },
	    {
	        identify: intIdentify,
	        default: true,
	        tag: 'tag:yaml.org,2002:int',
	        test: /^-?(?:0|[1-9][0-9]*)$/,
	        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
	        stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
	    },
	    {
	        identify: value => typeof value === 'number',
	        default: true,
	        tag: 'tag:yaml.org,2002:float',
	        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
	        resolve: str => parseFloat(str),
	        stringify: stringifyJSON
	    }
	];
	const jsonError = {
	    default: true,
	    tag: '',
	    test: /^/,
	    resolve(str, onError) {
	        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
	        return str;
	    }
	};
	const schema = [map.map, seq.seq].concat(jsonScalars, jsonError);

	schema$1.schema = schema;
	return schema$1;
}

var binary = {};

var hasRequiredBinary;

function requireBinary () {
	if (hasRequiredBinary) return binary;
	hasRequiredBinary = 1;

	var node_buffer = require$$0$1;
	var Scalar = requireScalar();
	var stringifyString = requireStringifyString();

	const binary$1 = {
	    identify: value => value instanceof Uint8Array, // Buffer inherits from Uint8Array
	    default: false,
	    tag: 'tag:yaml.org,2002:binary',
	    /**
	     * Returns a Buffer in node and an Uint8Array in browsers
	     *
	     * To use the resulting buffer as an image, you'll want to do something like:
	     *
	     *   const blob = new Blob([buffer], { type: 'image/jpeg' })
	     *   document.querySelector('#photo').src = URL.createObjectURL(blob)
	     */
	    resolve(src, onError) {
	        if (typeof node_buffer.Buffer === 'function') {
	            return node_buffer.Buffer.from(src, 'base64');
	        }
	        else if (typeof atob === 'function') {
	            // On IE 11, atob() can't handle newlines
	            const str = atob(src.replace(/[\n\r]/g, ''));
	            const buffer = new Uint8Array(str.length);
	            for (let i = 0; i < str.length; ++i)
	                buffer[i] = str.charCodeAt(i);
	            return buffer;
	        }
	        else {
	            onError('This environment does not support reading binary tags; either Buffer or atob is required');
	            return src;
	        }
	    },
	    stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
	        if (!value)
	            return '';
	        const buf = value; // checked earlier by binary.identify()
	        let str;
	        if (typeof node_buffer.Buffer === 'function') {
	            str =
	                buf instanceof node_buffer.Buffer
	                    ? buf.toString('base64')
	                    : node_buffer.Buffer.from(buf.buffer).toString('base64');
	        }
	        else if (typeof btoa === 'function') {
	            let s = '';
	            for (let i = 0; i < buf.length; ++i)
	                s += String.fromCharCode(buf[i]);
	            str = btoa(s);
	        }
	        else {
	            throw new Error('This environment does not support writing binary tags; either Buffer or btoa is required');
	        }
	        type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
	        if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
	            const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
	            const n = Math.ceil(str.length / lineWidth);
	            const lines = new Array(n);
	            for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
	                lines[i] = str.substr(o, lineWidth);
	            }
	            str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? '\n' : ' ');
	        }
	        return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
	    }
	};

	binary.binary = binary$1;
	return binary;
}

var omap = {};

var pairs = {};

var hasRequiredPairs;

function requirePairs () {
	if (hasRequiredPairs) return pairs;
	hasRequiredPairs = 1;

	var identity = requireIdentity();
	var Pair = requirePair();
	var Scalar = requireScalar();
	var YAMLSeq = requireYAMLSeq();

	function resolvePairs(seq, onError) {
	    if (identity.isSeq(seq)) {
	        for (let i = 0; i < seq.items.length; ++i) {
	            let item = seq.items[i];
	            if (identity.isPair(item))
	                continue;
	            else if (identity.isMap(item)) {
	                if (item.items.length > 1)
	                    onError('Each pair must have its own sequence indicator');
	                const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
	                if (item.commentBefore)
	                    pair.key.commentBefore = pair.key.commentBefore
	                        ? `${item.commentBefore}\n${pair.key.commentBefore}`
	                        : item.commentBefore;
	                if (item.comment) {
	                    const cn = pair.value ?? pair.key;
	                    cn.comment = cn.comment
	                        ? `${item.comment}\n${cn.comment}`
	                        : item.comment;
	                }
	                item = pair;
	            }
	            seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
	        }
	    }
	    else
	        onError('Expected a sequence for this tag');
	    return seq;
	}
	function createPairs(schema, iterable, ctx) {
	    const { replacer } = ctx;
	    const pairs = new YAMLSeq.YAMLSeq(schema);
	    pairs.tag = 'tag:yaml.org,2002:pairs';
	    let i = 0;
	    if (iterable && Symbol.iterator in Object(iterable))
	        for (let it of iterable) {
	            if (typeof replacer === 'function')
	                it = replacer.call(iterable, String(i++), it);
	            let key, value;
	            if (Array.isArray(it)) {
	                if (it.length === 2) {
	                    key = it[0];
	                    value = it[1];
	                }
	                else
	                    throw new TypeError(`Expected [key, value] tuple: ${it}`);
	            }
	            else if (it && it instanceof Object) {
	                const keys = Object.keys(it);
	                if (keys.length === 1) {
	                    key = keys[0];
	                    value = it[key];
	                }
	                else {
	                    throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
	                }
	            }
	            else {
	                key = it;
	            }
	            pairs.items.push(Pair.createPair(key, value, ctx));
	        }
	    return pairs;
	}
	const pairs$1 = {
	    collection: 'seq',
	    default: false,
	    tag: 'tag:yaml.org,2002:pairs',
	    resolve: resolvePairs,
	    createNode: createPairs
	};

	pairs.createPairs = createPairs;
	pairs.pairs = pairs$1;
	pairs.resolvePairs = resolvePairs;
	return pairs;
}

var hasRequiredOmap;

function requireOmap () {
	if (hasRequiredOmap) return omap;
	hasRequiredOmap = 1;

	var identity = requireIdentity();
	var toJS = requireToJS();
	var YAMLMap = requireYAMLMap();
	var YAMLSeq = requireYAMLSeq();
	var pairs = requirePairs();

	class YAMLOMap extends YAMLSeq.YAMLSeq {
	    constructor() {
	        super();
	        this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
	        this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
	        this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
	        this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
	        this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
	        this.tag = YAMLOMap.tag;
	    }
	    /**
	     * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
	     * but TypeScript won't allow widening the signature of a child method.
	     */
	    toJSON(_, ctx) {
	        if (!ctx)
	            return super.toJSON(_);
	        const map = new Map();
	        if (ctx?.onCreate)
	            ctx.onCreate(map);
	        for (const pair of this.items) {
	            let key, value;
	            if (identity.isPair(pair)) {
	                key = toJS.toJS(pair.key, '', ctx);
	                value = toJS.toJS(pair.value, key, ctx);
	            }
	            else {
	                key = toJS.toJS(pair, '', ctx);
	            }
	            if (map.has(key))
	                throw new Error('Ordered maps must not include duplicate keys');
	            map.set(key, value);
	        }
	        return map;
	    }
	    static from(schema, iterable, ctx) {
	        const pairs$1 = pairs.createPairs(schema, iterable, ctx);
	        const omap = new this();
	        omap.items = pairs$1.items;
	        return omap;
	    }
	}
	YAMLOMap.tag = 'tag:yaml.org,2002:omap';
	const omap$1 = {
	    collection: 'seq',
	    identify: value => value instanceof Map,
	    nodeClass: YAMLOMap,
	    default: false,
	    tag: 'tag:yaml.org,2002:omap',
	    resolve(seq, onError) {
	        const pairs$1 = pairs.resolvePairs(seq, onError);
	        const seenKeys = [];
	        for (const { key } of pairs$1.items) {
	            if (identity.isScalar(key)) {
	                if (seenKeys.includes(key.value)) {
	                    onError(`Ordered maps must not include duplicate keys: ${key.value}`);
	                }
	                else {
	                    seenKeys.push(key.value);
	                }
	            }
	        }
	        return Object.assign(new YAMLOMap(), pairs$1);
	    },
	    createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
	};

	omap.YAMLOMap = YAMLOMap;
	omap.omap = omap$1;
	return omap;
}

var schema = {};

var bool = {};

var hasRequiredBool;

function requireBool () {
	if (hasRequiredBool) return bool;
	hasRequiredBool = 1;

	var Scalar = requireScalar();

	function boolStringify({ value, source }, ctx) {
	    const boolObj = value ? trueTag : falseTag;
	    if (source && boolObj.test.test(source))
	        return source;
	    return value ? ctx.options.trueStr : ctx.options.falseStr;
	}
	const trueTag = {
	    identify: value => value === true,
	    default: true,
	    tag: 'tag:yaml.org,2002:bool',
	    test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
	    resolve: () => new Scalar.Scalar(true),
	    stringify: boolStringify
	};
	const falseTag = {
	    identify: value => value === false,
	    default: true,
	    tag: 'tag:yaml.org,2002:bool',
	    test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
	    resolve: () => new Scalar.Scalar(false),
	    stringify: boolStringify
	};

	bool.falseTag = falseTag;
	bool.trueTag = trueTag;
	return bool;
}

var float = {};

var hasRequiredFloat;

function requireFloat () {
	if (hasRequiredFloat) return float;
	hasRequiredFloat = 1;

	var Scalar = requireScalar();
	var stringifyNumber = requireStringifyNumber();

	const floatNaN = {
	    identify: value => typeof value === 'number',
	    default: true,
	    tag: 'tag:yaml.org,2002:float',
	    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
	    resolve: (str) => str.slice(-3).toLowerCase() === 'nan'
	        ? NaN
	        : str[0] === '-'
	            ? Number.NEGATIVE_INFINITY
	            : Number.POSITIVE_INFINITY,
	    stringify: stringifyNumber.stringifyNumber
	};
	const floatExp = {
	    identify: value => typeof value === 'number',
	    default: true,
	    tag: 'tag:yaml.org,2002:float',
	    format: 'EXP',
	    test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
	    resolve: (str) => parseFloat(str.replace(/_/g, '')),
	    stringify(node) {
	        const num = Number(node.value);
	        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
	    }
	};
	const float$1 = {
	    identify: value => typeof value === 'number',
	    default: true,
	    tag: 'tag:yaml.org,2002:float',
	    test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
	    resolve(str) {
	        const node = new Scalar.Scalar(parseFloat(str.replace(/_/g, '')));
	        const dot = str.indexOf('.');
	        if (dot !== -1) {
	            const f = str.substring(dot + 1).replace(/_/g, '');
	            if (f[f.length - 1] === '0')
	                node.minFractionDigits = f.length;
	        }
	        return node;
	    },
	    stringify: stringifyNumber.stringifyNumber
	};

	float.float = float$1;
	float.floatExp = floatExp;
	float.floatNaN = floatNaN;
	return float;
}

var int = {};

var hasRequiredInt;

function requireInt () {
	if (hasRequiredInt) return int;
	hasRequiredInt = 1;

	var stringifyNumber = requireStringifyNumber();

	const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
	function intResolve(str, offset, radix, { intAsBigInt }) {
	    const sign = str[0];
	    if (sign === '-' || sign === '+')
	        offset += 1;
	    str = str.substring(offset).replace(/_/g, '');
	    if (intAsBigInt) {
	        switch (radix) {
	            case 2:
	                str = `0b${str}`;
	                break;
	            case 8:
	                str = `0o${str}`;
	                break;
	            case 16:
	                str = `0x${str}`;
	                break;
	        }
	        const n = BigInt(str);
	        return sign === '-' ? BigInt(-1) * n : n;
	    }
	    const n = parseInt(str, radix);
	    return sign === '-' ? -1 * n : n;
	}
	function intStringify(node, radix, prefix) {
	    const { value } = node;
	    if (intIdentify(value)) {
	        const str = value.toString(radix);
	        return value < 0 ? '-' + prefix + str.substr(1) : prefix + str;
	    }
	    return stringifyNumber.stringifyNumber(node);
	}
	const intBin = {
	    identify: intIdentify,
	    default: true,
	    tag: 'tag:yaml.org,2002:int',
	    format: 'BIN',
	    test: /^[-+]?0b[0-1_]+$/,
	    resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
	    stringify: node => intStringify(node, 2, '0b')
	};
	const intOct = {
	    identify: intIdentify,
	    default: true,
	    tag: 'tag:yaml.org,2002:int',
	    format: 'OCT',
	    test: /^[-+]?0[0-7_]+$/,
	    resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
	    stringify: node => intStringify(node, 8, '0')
	};
	const int$1 = {
	    identify: intIdentify,
	    default: true,
	    tag: 'tag:yaml.org,2002:int',
	    test: /^[-+]?[0-9][0-9_]*$/,
	    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
	    stringify: stringifyNumber.stringifyNumber
	};
	const intHex = {
	    identify: intIdentify,
	    default: true,
	    tag: 'tag:yaml.org,2002:int',
	    format: 'HEX',
	    test: /^[-+]?0x[0-9a-fA-F_]+$/,
	    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
	    stringify: node => intStringify(node, 16, '0x')
	};

	int.int = int$1;
	int.intBin = intBin;
	int.intHex = intHex;
	int.intOct = intOct;
	return int;
}

var set = {};

var hasRequiredSet;

function requireSet () {
	if (hasRequiredSet) return set;
	hasRequiredSet = 1;

	var identity = requireIdentity();
	var Pair = requirePair();
	var YAMLMap = requireYAMLMap();

	class YAMLSet extends YAMLMap.YAMLMap {
	    constructor(schema) {
	        super(schema);
	        this.tag = YAMLSet.tag;
	    }
	    add(key) {
	        let pair;
	        if (identity.isPair(key))
	            pair = key;
	        else if (key &&
	            typeof key === 'object' &&
	            'key' in key &&
	            'value' in key &&
	            key.value === null)
	            pair = new Pair.Pair(key.key, null);
	        else
	            pair = new Pair.Pair(key, null);
	        const prev = YAMLMap.findPair(this.items, pair.key);
	        if (!prev)
	            this.items.push(pair);
	    }
	    /**
	     * If `keepPair` is `true`, returns the Pair matching `key`.
	     * Otherwise, returns the value of that Pair's key.
	     */
	    get(key, keepPair) {
	        const pair = YAMLMap.findPair(this.items, key);
	        return !keepPair && identity.isPair(pair)
	            ? identity.isScalar(pair.key)
	                ? pair.key.value
	                : pair.key
	            : pair;
	    }
	    set(key, value) {
	        if (typeof value !== 'boolean')
	            throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
	        const prev = YAMLMap.findPair(this.items, key);
	        if (prev && !value) {
	            this.items.splice(this.items.indexOf(prev), 1);
	        }
	        else if (!prev && value) {
	            this.items.push(new Pair.Pair(key));
	        }
	    }
	    toJSON(_, ctx) {
	        return super.toJSON(_, ctx, Set);
	    }
	    toString(ctx, onComment, onChompKeep) {
	        if (!ctx)
	            return JSON.stringify(this);
	        if (this.hasAllNullValues(true))
	            return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
	        else
	            throw new Error('Set items must all have null values');
	    }
	    static from(schema, iterable, ctx) {
	        const { replacer } = ctx;
	        const set = new this(schema);
	        if (iterable && Symbol.iterator in Object(iterable))
	            for (let value of iterable) {
	                if (typeof replacer === 'function')
	                    value = replacer.call(iterable, value, value);
	                set.items.push(Pair.createPair(value, null, ctx));
	            }
	        return set;
	    }
	}
	YAMLSet.tag = 'tag:yaml.org,2002:set';
	const set$1 = {
	    collection: 'map',
	    identify: value => value instanceof Set,
	    nodeClass: YAMLSet,
	    default: false,
	    tag: 'tag:yaml.org,2002:set',
	    createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
	    resolve(map, onError) {
	        if (identity.isMap(map)) {
	            if (map.hasAllNullValues(true))
	                return Object.assign(new YAMLSet(), map);
	            else
	                onError('Set items must all have null values');
	        }
	        else
	            onError('Expected a mapping for this tag');
	        return map;
	    }
	};

	set.YAMLSet = YAMLSet;
	set.set = set$1;
	return set;
}

var timestamp = {};

var hasRequiredTimestamp;

function requireTimestamp () {
	if (hasRequiredTimestamp) return timestamp;
	hasRequiredTimestamp = 1;

	var stringifyNumber = requireStringifyNumber();

	/** Internal types handle bigint as number, because TS can't figure it out. */
	function parseSexagesimal(str, asBigInt) {
	    const sign = str[0];
	    const parts = sign === '-' || sign === '+' ? str.substring(1) : str;
	    const num = (n) => asBigInt ? BigInt(n) : Number(n);
	    const res = parts
	        .replace(/_/g, '')
	        .split(':')
	        .reduce((res, p) => res * num(60) + num(p), num(0));
	    return (sign === '-' ? num(-1) * res : res);
	}
	/**
	 * hhhh:mm:ss.sss
	 *
	 * Internal types handle bigint as number, because TS can't figure it out.
	 */
	function stringifySexagesimal(node) {
	    let { value } = node;
	    let num = (n) => n;
	    if (typeof value === 'bigint')
	        num = n => BigInt(n);
	    else if (isNaN(value) || !isFinite(value))
	        return stringifyNumber.stringifyNumber(node);
	    let sign = '';
	    if (value < 0) {
	        sign = '-';
	        value *= num(-1);
	    }
	    const _60 = num(60);
	    const parts = [value % _60]; // seconds, including ms
	    if (value < 60) {
	        parts.unshift(0); // at least one : is required
	    }
	    else {
	        value = (value - parts[0]) / _60;
	        parts.unshift(value % _60); // minutes
	        if (value >= 60) {
	            value = (value - parts[0]) / _60;
	            parts.unshift(value); // hours
	        }
	    }
	    return (sign +
	        parts
	            .map(n => String(n).padStart(2, '0'))
	            .join(':')
	            .replace(/000000\d*$/, '') // % 60 may introduce error
	    );
	}
	const intTime = {
	    identify: value => typeof value === 'bigint' || Number.isInteger(value),
	    default: true,
	    tag: 'tag:yaml.org,2002:int',
	    format: 'TIME',
	    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
	    resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
	    stringify: stringifySexagesimal
	};
	const floatTime = {
	    identify: value => typeof value === 'number',
	    default: true,
	    tag: 'tag:yaml.org,2002:float',
	    format: 'TIME',
	    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
	    resolve: str => parseSexagesimal(str, false),
	    stringify: stringifySexagesimal
	};
	const timestamp$1 = {
	    identify: value => value instanceof Date,
	    default: true,
	    tag: 'tag:yaml.org,2002:timestamp',
	    // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
	    // may be omitted altogether, resulting in a date format. In such a case, the time part is
	    // assumed to be 00:00:00Z (start of day, UTC).
	    test: RegExp('^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})' + // YYYY-Mm-Dd
	        '(?:' + // time is optional
	        '(?:t|T|[ \\t]+)' + // t | T | whitespace
	        '([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)' + // Hh:Mm:Ss(.ss)?
	        '(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?' + // Z | +5 | -03:30
	        ')?$'),
	    resolve(str) {
	        const match = str.match(timestamp$1.test);
	        if (!match)
	            throw new Error('!!timestamp expects a date, starting with yyyy-mm-dd');
	        const [, year, month, day, hour, minute, second] = match.map(Number);
	        const millisec = match[7] ? Number((match[7] + '00').substr(1, 3)) : 0;
	        let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
	        const tz = match[8];
	        if (tz && tz !== 'Z') {
	            let d = parseSexagesimal(tz, false);
	            if (Math.abs(d) < 30)
	                d *= 60;
	            date -= 60000 * d;
	        }
	        return new Date(date);
	    },
	    stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, '') ?? ''
	};

	timestamp.floatTime = floatTime;
	timestamp.intTime = intTime;
	timestamp.timestamp = timestamp$1;
	return timestamp;
}

var hasRequiredSchema$1;

function requireSchema$1 () {
	if (hasRequiredSchema$1) return schema;
	hasRequiredSchema$1 = 1;

	var map = requireMap();
	var _null = require_null();
	var seq = requireSeq();
	var string = requireString();
	var binary = requireBinary();
	var bool = requireBool();
	var float = requireFloat();
	var int = requireInt();
	var merge = requireMerge();
	var omap = requireOmap();
	var pairs = requirePairs();
	var set = requireSet();
	var timestamp = requireTimestamp();

	const schema$1 = [
	    map.map,
	    seq.seq,
	    string.string,
	    _null.nullTag,
	    bool.trueTag,
	    bool.falseTag,
	    int.intBin,
	    int.intOct,
	    int.int,
	    int.intHex,
	    float.floatNaN,
	    float.floatExp,
	    float.float,
	    binary.binary,
	    merge.merge,
	    omap.omap,
	    pairs.pairs,
	    set.set,
	    timestamp.intTime,
	    timestamp.floatTime,
	    timestamp.timestamp
	];

	schema.schema = schema$1;
	return schema;
}

var hasRequiredTags;

function requireTags () {
	if (hasRequiredTags) return tags;
	hasRequiredTags = 1;

	var map = requireMap();
	var _null = require_null();
	var seq = requireSeq();
	var string = requireString();
	var bool = requireBool$1();
	var float = requireFloat$1();
	var int = requireInt$1();
	var schema = requireSchema$3();
	var schema$1 = requireSchema$2();
	var binary = requireBinary();
	var merge = requireMerge();
	var omap = requireOmap();
	var pairs = requirePairs();
	var schema$2 = requireSchema$1();
	var set = requireSet();
	var timestamp = requireTimestamp();

	const schemas = new Map([
	    ['core', schema.schema],
	    ['failsafe', [map.map, seq.seq, string.string]],
	    ['json', schema$1.schema],
	    ['yaml11', schema$2.schema],
	    ['yaml-1.1', schema$2.schema]
	]);
	const tagsByName = {
	    binary: binary.binary,
	    bool: bool.boolTag,
	    float: float.float,
	    floatExp: float.floatExp,
	    floatNaN: float.floatNaN,
	    floatTime: timestamp.floatTime,
	    int: int.int,
	    intHex: int.intHex,
	    intOct: int.intOct,
	    intTime: timestamp.intTime,
	    map: map.map,
	    merge: merge.merge,
	    null: _null.nullTag,
	    omap: omap.omap,
	    pairs: pairs.pairs,
	    seq: seq.seq,
	    set: set.set,
	    timestamp: timestamp.timestamp
	};
	const coreKnownTags = {
	    'tag:yaml.org,2002:binary': binary.binary,
	    'tag:yaml.org,2002:merge': merge.merge,
	    'tag:yaml.org,2002:omap': omap.omap,
	    'tag:yaml.org,2002:pairs': pairs.pairs,
	    'tag:yaml.org,2002:set': set.set,
	    'tag:yaml.org,2002:timestamp': timestamp.timestamp
	};
	function getTags(customTags, schemaName, addMergeTag) {
	    const schemaTags = schemas.get(schemaName);
	    if (schemaTags && !customTags) {
	        return addMergeTag && !schemaTags.includes(merge.merge)
	            ? schemaTags.concat(merge.merge)
	            : schemaTags.slice();
	    }
	    let tags = schemaTags;
	    if (!tags) {
	        if (Array.isArray(customTags))
	            tags = [];
	        else {
	            const keys = Array.from(schemas.keys())
	                .filter(key => key !== 'yaml11')
	                .map(key => JSON.stringify(key))
	                .join(', ');
	            throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
	        }
	    }
	    if (Array.isArray(customTags)) {
	        for (const tag of customTags)
	            tags = tags.concat(tag);
	    }
	    else if (typeof customTags === 'function') {
	        tags = customTags(tags.slice());
	    }
	    if (addMergeTag)
	        tags = tags.concat(merge.merge);
	    return tags.reduce((tags, tag) => {
	        const tagObj = typeof tag === 'string' ? tagsByName[tag] : tag;
	        if (!tagObj) {
	            const tagName = JSON.stringify(tag);
	            const keys = Object.keys(tagsByName)
	                .map(key => JSON.stringify(key))
	                .join(', ');
	            throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
	        }
	        if (!tags.includes(tagObj))
	            tags.push(tagObj);
	        return tags;
	    }, []);
	}

	tags.coreKnownTags = coreKnownTags;
	tags.getTags = getTags;
	return tags;
}

var hasRequiredSchema;

function requireSchema () {
	if (hasRequiredSchema) return Schema;
	hasRequiredSchema = 1;

	var identity = requireIdentity();
	var map = requireMap();
	var seq = requireSeq();
	var string = requireString();
	var tags = requireTags();

	const sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
	let Schema$1 = class Schema {
	    constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
	        this.compat = Array.isArray(compat)
	            ? tags.getTags(compat, 'compat')
	            : compat
	                ? tags.getTags(null, compat)
	                : null;
	        this.name = (typeof schema === 'string' && schema) || 'core';
	        this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
	        this.tags = tags.getTags(customTags, this.name, merge);
	        this.toStringOptions = toStringDefaults ?? null;
	        Object.defineProperty(this, identity.MAP, { value: map.map });
	        Object.defineProperty(this, identity.SCALAR, { value: string.string });
	        Object.defineProperty(this, identity.SEQ, { value: seq.seq });
	        // Used by createMap()
	        this.sortMapEntries =
	            typeof sortMapEntries === 'function'
	                ? sortMapEntries
	                : sortMapEntries === true
	                    ? sortMapEntriesByKey
	                    : null;
	    }
	    clone() {
	        const copy = Object.create(Schema.prototype, Object.getOwnPropertyDescriptors(this));
	        copy.tags = this.tags.slice();
	        return copy;
	    }
	};

	Schema.Schema = Schema$1;
	return Schema;
}

var stringifyDocument = {};

var hasRequiredStringifyDocument;

function requireStringifyDocument () {
	if (hasRequiredStringifyDocument) return stringifyDocument;
	hasRequiredStringifyDocument = 1;

	var identity = requireIdentity();
	var stringify = requireStringify();
	var stringifyComment = requireStringifyComment();

	function stringifyDocument$1(doc, options) {
	    const lines = [];
	    let hasDirectives = options.directives === true;
	    if (options.directives !== false && doc.directives) {
	        const dir = doc.directives.toString(doc);
	        if (dir) {
	            lines.push(dir);
	            hasDirectives = true;
	        }
	        else if (doc.directives.docStart)
	            hasDirectives = true;
	    }
	    if (hasDirectives)
	        lines.push('---');
	    const ctx = stringify.createStringifyContext(doc, options);
	    const { commentString } = ctx.options;
	    if (doc.commentBefore) {
	        if (lines.length !== 1)
	            lines.unshift('');
	        const cs = commentString(doc.commentBefore);
	        lines.unshift(stringifyComment.indentComment(cs, ''));
	    }
	    let chompKeep = false;
	    let contentComment = null;
	    if (doc.contents) {
	        if (identity.isNode(doc.contents)) {
	            if (doc.contents.spaceBefore && hasDirectives)
	                lines.push('');
	            if (doc.contents.commentBefore) {
	                const cs = commentString(doc.contents.commentBefore);
	                lines.push(stringifyComment.indentComment(cs, ''));
	            }
	            // top-level block scalars need to be indented if followed by a comment
	            ctx.forceBlockIndent = !!doc.comment;
	            contentComment = doc.contents.comment;
	        }
	        const onChompKeep = contentComment ? undefined : () => (chompKeep = true);
	        let body = stringify.stringify(doc.contents, ctx, () => (contentComment = null), onChompKeep);
	        if (contentComment)
	            body += stringifyComment.lineComment(body, '', commentString(contentComment));
	        if ((body[0] === '|' || body[0] === '>') &&
	            lines[lines.length - 1] === '---') {
	            // Top-level block scalars with a preceding doc marker ought to use the
	            // same line for their header.
	            lines[lines.length - 1] = `--- ${body}`;
	        }
	        else
	            lines.push(body);
	    }
	    else {
	        lines.push(stringify.stringify(doc.contents, ctx));
	    }
	    if (doc.directives?.docEnd) {
	        if (doc.comment) {
	            const cs = commentString(doc.comment);
	            if (cs.includes('\n')) {
	                lines.push('...');
	                lines.push(stringifyComment.indentComment(cs, ''));
	            }
	            else {
	                lines.push(`... ${cs}`);
	            }
	        }
	        else {
	            lines.push('...');
	        }
	    }
	    else {
	        let dc = doc.comment;
	        if (dc && chompKeep)
	            dc = dc.replace(/^\n+/, '');
	        if (dc) {
	            if ((!chompKeep || contentComment) && lines[lines.length - 1] !== '')
	                lines.push('');
	            lines.push(stringifyComment.indentComment(commentString(dc), ''));
	        }
	    }
	    return lines.join('\n') + '\n';
	}

	stringifyDocument.stringifyDocument = stringifyDocument$1;
	return stringifyDocument;
}

var hasRequiredDocument;

function requireDocument () {
	if (hasRequiredDocument) return Document;
	hasRequiredDocument = 1;

	var Alias = requireAlias();
	var Collection = requireCollection();
	var identity = requireIdentity();
	var Pair = requirePair();
	var toJS = requireToJS();
	var Schema = requireSchema();
	var stringifyDocument = requireStringifyDocument();
	var anchors = requireAnchors();
	var applyReviver = requireApplyReviver();
	var createNode = requireCreateNode();
	var directives = requireDirectives();

	let Document$1 = class Document {
	    constructor(value, replacer, options) {
	        /** A comment before this Document */
	        this.commentBefore = null;
	        /** A comment immediately after this Document */
	        this.comment = null;
	        /** Errors encountered during parsing. */
	        this.errors = [];
	        /** Warnings encountered during parsing. */
	        this.warnings = [];
	        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
	        let _replacer = null;
	        if (typeof replacer === 'function' || Array.isArray(replacer)) {
	            _replacer = replacer;
	        }
	        else if (options === undefined && replacer) {
	            options = replacer;
	            replacer = undefined;
	        }
	        const opt = Object.assign({
	            intAsBigInt: false,
	            keepSourceTokens: false,
	            logLevel: 'warn',
	            prettyErrors: true,
	            strict: true,
	            stringKeys: false,
	            uniqueKeys: true,
	            version: '1.2'
	        }, options);
	        this.options = opt;
	        let { version } = opt;
	        if (options?._directives) {
	            this.directives = options._directives.atDocument();
	            if (this.directives.yaml.explicit)
	                version = this.directives.yaml.version;
	        }
	        else
	            this.directives = new directives.Directives({ version });
	        this.setSchema(version, options);
	        // @ts-expect-error We can't really know that this matches Contents.
	        this.contents =
	            value === undefined ? null : this.createNode(value, _replacer, options);
	    }
	    /**
	     * Create a deep copy of this Document and its contents.
	     *
	     * Custom Node values that inherit from `Object` still refer to their original instances.
	     */
	    clone() {
	        const copy = Object.create(Document.prototype, {
	            [identity.NODE_TYPE]: { value: identity.DOC }
	        });
	        copy.commentBefore = this.commentBefore;
	        copy.comment = this.comment;
	        copy.errors = this.errors.slice();
	        copy.warnings = this.warnings.slice();
	        copy.options = Object.assign({}, this.options);
	        if (this.directives)
	            copy.directives = this.directives.clone();
	        copy.schema = this.schema.clone();
	        // @ts-expect-error We can't really know that this matches Contents.
	        copy.contents = identity.isNode(this.contents)
	            ? this.contents.clone(copy.schema)
	            : this.contents;
	        if (this.range)
	            copy.range = this.range.slice();
	        return copy;
	    }
	    /** Adds a value to the document. */
	    add(value) {
	        if (assertCollection(this.contents))
	            this.contents.add(value);
	    }
	    /** Adds a value to the document. */
	    addIn(path, value) {
	        if (assertCollection(this.contents))
	            this.contents.addIn(path, value);
	    }
	    /**
	     * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
	     *
	     * If `node` already has an anchor, `name` is ignored.
	     * Otherwise, the `node.anchor` value will be set to `name`,
	     * or if an anchor with that name is already present in the document,
	     * `name` will be used as a prefix for a new unique anchor.
	     * If `name` is undefined, the generated anchor will use 'a' as a prefix.
	     */
	    createAlias(node, name) {
	        if (!node.anchor) {
	            const prev = anchors.anchorNames(this);
	            node.anchor =
	                // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
	                !name || prev.has(name) ? anchors.findNewAnchor(name || 'a', prev) : name;
	        }
	        return new Alias.Alias(node.anchor);
	    }
	    createNode(value, replacer, options) {
	        let _replacer = undefined;
	        if (typeof replacer === 'function') {
	            value = replacer.call({ '': value }, '', value);
	            _replacer = replacer;
	        }
	        else if (Array.isArray(replacer)) {
	            const keyToStr = (v) => typeof v === 'number' || v instanceof String || v instanceof Number;
	            const asStr = replacer.filter(keyToStr).map(String);
	            if (asStr.length > 0)
	                replacer = replacer.concat(asStr);
	            _replacer = replacer;
	        }
	        else if (options === undefined && replacer) {
	            options = replacer;
	            replacer = undefined;
	        }
	        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
	        const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(this, 
	        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
	        anchorPrefix || 'a');
	        const ctx = {
	            aliasDuplicateObjects: aliasDuplicateObjects ?? true,
	            keepUndefined: keepUndefined ?? false,
	            onAnchor,
	            onTagObj,
	            replacer: _replacer,
	            schema: this.schema,
	            sourceObjects
	        };
	        const node = createNode.createNode(value, tag, ctx);
	        if (flow && identity.isCollection(node))
	            node.flow = true;
	        setAnchors();
	        return node;
	    }
	    /**
	     * Convert a key and a value into a `Pair` using the current schema,
	     * recursively wrapping all values as `Scalar` or `Collection` nodes.
	     */
	    createPair(key, value, options = {}) {
	        const k = this.createNode(key, null, options);
	        const v = this.createNode(value, null, options);
	        return new Pair.Pair(k, v);
	    }
	    /**
	     * Removes a value from the document.
	     * @returns `true` if the item was found and removed.
	     */
	    delete(key) {
	        return assertCollection(this.contents) ? this.contents.delete(key) : false;
	    }
	    /**
	     * Removes a value from the document.
	     * @returns `true` if the item was found and removed.
	     */
	    deleteIn(path) {
	        if (Collection.isEmptyPath(path)) {
	            if (this.contents == null)
	                return false;
	            // @ts-expect-error Presumed impossible if Strict extends false
	            this.contents = null;
	            return true;
	        }
	        return assertCollection(this.contents)
	            ? this.contents.deleteIn(path)
	            : false;
	    }
	    /**
	     * Returns item at `key`, or `undefined` if not found. By default unwraps
	     * scalar values from their surrounding node; to disable set `keepScalar` to
	     * `true` (collections are always returned intact).
	     */
	    get(key, keepScalar) {
	        return identity.isCollection(this.contents)
	            ? this.contents.get(key, keepScalar)
	            : undefined;
	    }
	    /**
	     * Returns item at `path`, or `undefined` if not found. By default unwraps
	     * scalar values from their surrounding node; to disable set `keepScalar` to
	     * `true` (collections are always returned intact).
	     */
	    getIn(path, keepScalar) {
	        if (Collection.isEmptyPath(path))
	            return !keepScalar && identity.isScalar(this.contents)
	                ? this.contents.value
	                : this.contents;
	        return identity.isCollection(this.contents)
	            ? this.contents.getIn(path, keepScalar)
	            : undefined;
	    }
	    /**
	     * Checks if the document includes a value with the key `key`.
	     */
	    has(key) {
	        return identity.isCollection(this.contents) ? this.contents.has(key) : false;
	    }
	    /**
	     * Checks if the document includes a value at `path`.
	     */
	    hasIn(path) {
	        if (Collection.isEmptyPath(path))
	            return this.contents !== undefined;
	        return identity.isCollection(this.contents) ? this.contents.hasIn(path) : false;
	    }
	    /**
	     * Sets a value in this document. For `!!set`, `value` needs to be a
	     * boolean to add/remove the item from the set.
	     */
	    set(key, value) {
	        if (this.contents == null) {
	            // @ts-expect-error We can't really know that this matches Contents.
	            this.contents = Collection.collectionFromPath(this.schema, [key], value);
	        }
	        else if (assertCollection(this.contents)) {
	            this.contents.set(key, value);
	        }
	    }
	    /**
	     * Sets a value in this document. For `!!set`, `value` needs to be a
	     * boolean to add/remove the item from the set.
	     */
	    setIn(path, value) {
	        if (Collection.isEmptyPath(path)) {
	            // @ts-expect-error We can't really know that this matches Contents.
	            this.contents = value;
	        }
	        else if (this.contents == null) {
	            // @ts-expect-error We can't really know that this matches Contents.
	            this.contents = Collection.collectionFromPath(this.schema, Array.from(path), value);
	        }
	        else if (assertCollection(this.contents)) {
	            this.contents.setIn(path, value);
	        }
	    }
	    /**
	     * Change the YAML version and schema used by the document.
	     * A `null` version disables support for directives, explicit tags, anchors, and aliases.
	     * It also requires the `schema` option to be given as a `Schema` instance value.
	     *
	     * Overrides all previously set schema options.
	     */
	    setSchema(version, options = {}) {
	        if (typeof version === 'number')
	            version = String(version);
	        let opt;
	        switch (version) {
	            case '1.1':
	                if (this.directives)
	                    this.directives.yaml.version = '1.1';
	                else
	                    this.directives = new directives.Directives({ version: '1.1' });
	                opt = { resolveKnownTags: false, schema: 'yaml-1.1' };
	                break;
	            case '1.2':
	            case 'next':
	                if (this.directives)
	                    this.directives.yaml.version = version;
	                else
	                    this.directives = new directives.Directives({ version });
	                opt = { resolveKnownTags: true, schema: 'core' };
	                break;
	            case null:
	                if (this.directives)
	                    delete this.directives;
	                opt = null;
	                break;
	            default: {
	                const sv = JSON.stringify(version);
	                throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
	            }
	        }
	        // Not using `instanceof Schema` to allow for duck typing
	        if (options.schema instanceof Object)
	            this.schema = options.schema;
	        else if (opt)
	            this.schema = new Schema.Schema(Object.assign(opt, options));
	        else
	            throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
	    }
	    // json & jsonArg are only used from toJSON()
	    toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
	        const ctx = {
	            anchors: new Map(),
	            doc: this,
	            keep: !json,
	            mapAsMap: mapAsMap === true,
	            mapKeyWarned: false,
	            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
	        };
	        const res = toJS.toJS(this.contents, jsonArg ?? '', ctx);
	        if (typeof onAnchor === 'function')
	            for (const { count, res } of ctx.anchors.values())
	                onAnchor(res, count);
	        return typeof reviver === 'function'
	            ? applyReviver.applyReviver(reviver, { '': res }, '', res)
	            : res;
	    }
	    /**
	     * A JSON representation of the document `contents`.
	     *
	     * @param jsonArg Used by `JSON.stringify` to indicate the array index or
	     *   property name.
	     */
	    toJSON(jsonArg, onAnchor) {
	        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
	    }
	    /** A YAML representation of the document. */
	    toString(options = {}) {
	        if (this.errors.length > 0)
	            throw new Error('Document with errors cannot be stringified');
	        if ('indent' in options &&
	            (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
	            const s = JSON.stringify(options.indent);
	            throw new Error(`"indent" option must be a positive integer, not ${s}`);
	        }
	        return stringifyDocument.stringifyDocument(this, options);
	    }
	};
	function assertCollection(contents) {
	    if (identity.isCollection(contents))
	        return true;
	    throw new Error('Expected a YAML collection as document contents');
	}

	Document.Document = Document$1;
	return Document;
}

var errors = {};

var hasRequiredErrors;

function requireErrors () {
	if (hasRequiredErrors) return errors;
	hasRequiredErrors = 1;

	class YAMLError extends Error {
	    constructor(name, pos, code, message) {
	        super();
	        this.name = name;
	        this.code = code;
	        this.message = message;
	        this.pos = pos;
	    }
	}
	class YAMLParseError extends YAMLError {
	    constructor(pos, code, message) {
	        super('YAMLParseError', pos, code, message);
	    }
	}
	class YAMLWarning extends YAMLError {
	    constructor(pos, code, message) {
	        super('YAMLWarning', pos, code, message);
	    }
	}
	const prettifyError = (src, lc) => (error) => {
	    if (error.pos[0] === -1)
	        return;
	    error.linePos = error.pos.map(pos => lc.linePos(pos));
	    const { line, col } = error.linePos[0];
	    error.message += ` at line ${line}, column ${col}`;
	    let ci = col - 1;
	    let lineStr = src
	        .substring(lc.lineStarts[line - 1], lc.lineStarts[line])
	        .replace(/[\n\r]+$/, '');
	    // Trim to max 80 chars, keeping col position near the middle
	    if (ci >= 60 && lineStr.length > 80) {
	        const trimStart = Math.min(ci - 39, lineStr.length - 79);
	        lineStr = '…' + lineStr.substring(trimStart);
	        ci -= trimStart - 1;
	    }
	    if (lineStr.length > 80)
	        lineStr = lineStr.substring(0, 79) + '…';
	    // Include previous line in context if pointing at line start
	    if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
	        // Regexp won't match if start is trimmed
	        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
	        if (prev.length > 80)
	            prev = prev.substring(0, 79) + '…\n';
	        lineStr = prev + lineStr;
	    }
	    if (/[^ ]/.test(lineStr)) {
	        let count = 1;
	        const end = error.linePos[1];
	        if (end?.line === line && end.col > col) {
	            count = Math.max(1, Math.min(end.col - col, 80 - ci));
	        }
	        const pointer = ' '.repeat(ci) + '^'.repeat(count);
	        error.message += `:\n\n${lineStr}\n${pointer}\n`;
	    }
	};

	errors.YAMLError = YAMLError;
	errors.YAMLParseError = YAMLParseError;
	errors.YAMLWarning = YAMLWarning;
	errors.prettifyError = prettifyError;
	return errors;
}

var composeDoc = {};

var composeNode = {};

var composeCollection = {};

var resolveBlockMap = {};

var resolveProps = {};

var hasRequiredResolveProps;

function requireResolveProps () {
	if (hasRequiredResolveProps) return resolveProps;
	hasRequiredResolveProps = 1;

	function resolveProps$1(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
	    let spaceBefore = false;
	    let atNewline = startOnNewline;
	    let hasSpace = startOnNewline;
	    let comment = '';
	    let commentSep = '';
	    let hasNewline = false;
	    let reqSpace = false;
	    let tab = null;
	    let anchor = null;
	    let tag = null;
	    let newlineAfterProp = null;
	    let comma = null;
	    let found = null;
	    let start = null;
	    for (const token of tokens) {
	        if (reqSpace) {
	            if (token.type !== 'space' &&
	                token.type !== 'newline' &&
	                token.type !== 'comma')
	                onError(token.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
	            reqSpace = false;
	        }
	        if (tab) {
	            if (atNewline && token.type !== 'comment' && token.type !== 'newline') {
	                onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
	            }
	            tab = null;
	        }
	        switch (token.type) {
	            case 'space':
	                // At the doc level, tabs at line start may be parsed
	                // as leading white space rather than indentation.
	                // In a flow collection, only the parser handles indent.
	                if (!flow &&
	                    (indicator !== 'doc-start' || next?.type !== 'flow-collection') &&
	                    token.source.includes('\t')) {
	                    tab = token;
	                }
	                hasSpace = true;
	                break;
	            case 'comment': {
	                if (!hasSpace)
	                    onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
	                const cb = token.source.substring(1) || ' ';
	                if (!comment)
	                    comment = cb;
	                else
	                    comment += commentSep + cb;
	                commentSep = '';
	                atNewline = false;
	                break;
	            }
	            case 'newline':
	                if (atNewline) {
	                    if (comment)
	                        comment += token.source;
	                    else if (!found || indicator !== 'seq-item-ind')
	                        spaceBefore = true;
	                }
	                else
	                    commentSep += token.source;
	                atNewline = true;
	                hasNewline = true;
	                if (anchor || tag)
	                    newlineAfterProp = token;
	                hasSpace = true;
	                break;
	            case 'anchor':
	                if (anchor)
	                    onError(token, 'MULTIPLE_ANCHORS', 'A node can have at most one anchor');
	                if (token.source.endsWith(':'))
	                    onError(token.offset + token.source.length - 1, 'BAD_ALIAS', 'Anchor ending in : is ambiguous', true);
	                anchor = token;
	                start ?? (start = token.offset);
	                atNewline = false;
	                hasSpace = false;
	                reqSpace = true;
	                break;
	            case 'tag': {
	                if (tag)
	                    onError(token, 'MULTIPLE_TAGS', 'A node can have at most one tag');
	                tag = token;
	                start ?? (start = token.offset);
	                atNewline = false;
	                hasSpace = false;
	                reqSpace = true;
	                break;
	            }
	            case indicator:
	                // Could here handle preceding comments differently
	                if (anchor || tag)
	                    onError(token, 'BAD_PROP_ORDER', `Anchors and tags must be after the ${token.source} indicator`);
	                if (found)
	                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.source} in ${flow ?? 'collection'}`);
	                found = token;
	                atNewline =
	                    indicator === 'seq-item-ind' || indicator === 'explicit-key-ind';
	                hasSpace = false;
	                break;
	            case 'comma':
	                if (flow) {
	                    if (comma)
	                        onError(token, 'UNEXPECTED_TOKEN', `Unexpected , in ${flow}`);
	                    comma = token;
	                    atNewline = false;
	                    hasSpace = false;
	                    break;
	                }
	            // else fallthrough
	            default:
	                onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.type} token`);
	                atNewline = false;
	                hasSpace = false;
	        }
	    }
	    const last = tokens[tokens.length - 1];
	    const end = last ? last.offset + last.source.length : offset;
	    if (reqSpace &&
	        next &&
	        next.type !== 'space' &&
	        next.type !== 'newline' &&
	        next.type !== 'comma' &&
	        (next.type !== 'scalar' || next.source !== '')) {
	        onError(next.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
	    }
	    if (tab &&
	        ((atNewline && tab.indent <= parentIndent) ||
	            next?.type === 'block-map' ||
	            next?.type === 'block-seq'))
	        onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
	    return {
	        comma,
	        found,
	        spaceBefore,
	        comment,
	        hasNewline,
	        anchor,
	        tag,
	        newlineAfterProp,
	        end,
	        start: start ?? end
	    };
	}

	resolveProps.resolveProps = resolveProps$1;
	return resolveProps;
}

var utilContainsNewline = {};

var hasRequiredUtilContainsNewline;

function requireUtilContainsNewline () {
	if (hasRequiredUtilContainsNewline) return utilContainsNewline;
	hasRequiredUtilContainsNewline = 1;

	function containsNewline(key) {
	    if (!key)
	        return null;
	    switch (key.type) {
	        case 'alias':
	        case 'scalar':
	        case 'double-quoted-scalar':
	        case 'single-quoted-scalar':
	            if (key.source.includes('\n'))
	                return true;
	            if (key.end)
	                for (const st of key.end)
	                    if (st.type === 'newline')
	                        return true;
	            return false;
	        case 'flow-collection':
	            for (const it of key.items) {
	                for (const st of it.start)
	                    if (st.type === 'newline')
	                        return true;
	                if (it.sep)
	                    for (const st of it.sep)
	                        if (st.type === 'newline')
	                            return true;
	                if (containsNewline(it.key) || containsNewline(it.value))
	                    return true;
	            }
	            return false;
	        default:
	            return true;
	    }
	}

	utilContainsNewline.containsNewline = containsNewline;
	return utilContainsNewline;
}

var utilFlowIndentCheck = {};

var hasRequiredUtilFlowIndentCheck;

function requireUtilFlowIndentCheck () {
	if (hasRequiredUtilFlowIndentCheck) return utilFlowIndentCheck;
	hasRequiredUtilFlowIndentCheck = 1;

	var utilContainsNewline = requireUtilContainsNewline();

	function flowIndentCheck(indent, fc, onError) {
	    if (fc?.type === 'flow-collection') {
	        const end = fc.end[0];
	        if (end.indent === indent &&
	            (end.source === ']' || end.source === '}') &&
	            utilContainsNewline.containsNewline(fc)) {
	            const msg = 'Flow end indicator should be more indented than parent';
	            onError(end, 'BAD_INDENT', msg, true);
	        }
	    }
	}

	utilFlowIndentCheck.flowIndentCheck = flowIndentCheck;
	return utilFlowIndentCheck;
}

var utilMapIncludes = {};

var hasRequiredUtilMapIncludes;

function requireUtilMapIncludes () {
	if (hasRequiredUtilMapIncludes) return utilMapIncludes;
	hasRequiredUtilMapIncludes = 1;

	var identity = requireIdentity();

	function mapIncludes(ctx, items, search) {
	    const { uniqueKeys } = ctx.options;
	    if (uniqueKeys === false)
	        return false;
	    const isEqual = typeof uniqueKeys === 'function'
	        ? uniqueKeys
	        : (a, b) => a === b || (identity.isScalar(a) && identity.isScalar(b) && a.value === b.value);
	    return items.some(pair => isEqual(pair.key, search));
	}

	utilMapIncludes.mapIncludes = mapIncludes;
	return utilMapIncludes;
}

var hasRequiredResolveBlockMap;

function requireResolveBlockMap () {
	if (hasRequiredResolveBlockMap) return resolveBlockMap;
	hasRequiredResolveBlockMap = 1;

	var Pair = requirePair();
	var YAMLMap = requireYAMLMap();
	var resolveProps = requireResolveProps();
	var utilContainsNewline = requireUtilContainsNewline();
	var utilFlowIndentCheck = requireUtilFlowIndentCheck();
	var utilMapIncludes = requireUtilMapIncludes();

	const startColMsg = 'All mapping items must start at the same column';
	function resolveBlockMap$1({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
	    const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
	    const map = new NodeClass(ctx.schema);
	    if (ctx.atRoot)
	        ctx.atRoot = false;
	    let offset = bm.offset;
	    let commentEnd = null;
	    for (const collItem of bm.items) {
	        const { start, key, sep, value } = collItem;
	        // key properties
	        const keyProps = resolveProps.resolveProps(start, {
	            indicator: 'explicit-key-ind',
	            next: key ?? sep?.[0],
	            offset,
	            onError,
	            parentIndent: bm.indent,
	            startOnNewline: true
	        });
	        const implicitKey = !keyProps.found;
	        if (implicitKey) {
	            if (key) {
	                if (key.type === 'block-seq')
	                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'A block sequence may not be used as an implicit map key');
	                else if ('indent' in key && key.indent !== bm.indent)
	                    onError(offset, 'BAD_INDENT', startColMsg);
	            }
	            if (!keyProps.anchor && !keyProps.tag && !sep) {
	                commentEnd = keyProps.end;
	                if (keyProps.comment) {
	                    if (map.comment)
	                        map.comment += '\n' + keyProps.comment;
	                    else
	                        map.comment = keyProps.comment;
	                }
	                continue;
	            }
	            if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
	                onError(key ?? start[start.length - 1], 'MULTILINE_IMPLICIT_KEY', 'Implicit keys need to be on a single line');
	            }
	        }
	        else if (keyProps.found?.indent !== bm.indent) {
	            onError(offset, 'BAD_INDENT', startColMsg);
	        }
	        // key value
	        ctx.atKey = true;
	        const keyStart = keyProps.end;
	        const keyNode = key
	            ? composeNode(ctx, key, keyProps, onError)
	            : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
	        if (ctx.schema.compat)
	            utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
	        ctx.atKey = false;
	        if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
	            onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
	        // value properties
	        const valueProps = resolveProps.resolveProps(sep ?? [], {
	            indicator: 'map-value-ind',
	            next: value,
	            offset: keyNode.range[2],
	            onError,
	            parentIndent: bm.indent,
	            startOnNewline: !key || key.type === 'block-scalar'
	        });
	        offset = valueProps.end;
	        if (valueProps.found) {
	            if (implicitKey) {
	                if (value?.type === 'block-map' && !valueProps.hasNewline)
	                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'Nested mappings are not allowed in compact mappings');
	                if (ctx.options.strict &&
	                    keyProps.start < valueProps.found.offset - 1024)
	                    onError(keyNode.range, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit block mapping key');
	            }
	            // value value
	            const valueNode = value
	                ? composeNode(ctx, value, valueProps, onError)
	                : composeEmptyNode(ctx, offset, sep, null, valueProps, onError);
	            if (ctx.schema.compat)
	                utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
	            offset = valueNode.range[2];
	            const pair = new Pair.Pair(keyNode, valueNode);
	            if (ctx.options.keepSourceTokens)
	                pair.srcToken = collItem;
	            map.items.push(pair);
	        }
	        else {
	            // key with no value
	            if (implicitKey)
	                onError(keyNode.range, 'MISSING_CHAR', 'Implicit map keys need to be followed by map values');
	            if (valueProps.comment) {
	                if (keyNode.comment)
	                    keyNode.comment += '\n' + valueProps.comment;
	                else
	                    keyNode.comment = valueProps.comment;
	            }
	            const pair = new Pair.Pair(keyNode);
	            if (ctx.options.keepSourceTokens)
	                pair.srcToken = collItem;
	            map.items.push(pair);
	        }
	    }
	    if (commentEnd && commentEnd < offset)
	        onError(commentEnd, 'IMPOSSIBLE', 'Map comment with trailing content');
	    map.range = [bm.offset, offset, commentEnd ?? offset];
	    return map;
	}

	resolveBlockMap.resolveBlockMap = resolveBlockMap$1;
	return resolveBlockMap;
}

var resolveBlockSeq = {};

var hasRequiredResolveBlockSeq;

function requireResolveBlockSeq () {
	if (hasRequiredResolveBlockSeq) return resolveBlockSeq;
	hasRequiredResolveBlockSeq = 1;

	var YAMLSeq = requireYAMLSeq();
	var resolveProps = requireResolveProps();
	var utilFlowIndentCheck = requireUtilFlowIndentCheck();

	function resolveBlockSeq$1({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
	    const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
	    const seq = new NodeClass(ctx.schema);
	    if (ctx.atRoot)
	        ctx.atRoot = false;
	    if (ctx.atKey)
	        ctx.atKey = false;
	    let offset = bs.offset;
	    let commentEnd = null;
	    for (const { start, value } of bs.items) {
	        const props = resolveProps.resolveProps(start, {
	            indicator: 'seq-item-ind',
	            next: value,
	            offset,
	            onError,
	            parentIndent: bs.indent,
	            startOnNewline: true
	        });
	        if (!props.found) {
	            if (props.anchor || props.tag || value) {
	                if (value?.type === 'block-seq')
	                    onError(props.end, 'BAD_INDENT', 'All sequence items must start at the same column');
	                else
	                    onError(offset, 'MISSING_CHAR', 'Sequence item without - indicator');
	            }
	            else {
	                commentEnd = props.end;
	                if (props.comment)
	                    seq.comment = props.comment;
	                continue;
	            }
	        }
	        const node = value
	            ? composeNode(ctx, value, props, onError)
	            : composeEmptyNode(ctx, props.end, start, null, props, onError);
	        if (ctx.schema.compat)
	            utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
	        offset = node.range[2];
	        seq.items.push(node);
	    }
	    seq.range = [bs.offset, offset, commentEnd ?? offset];
	    return seq;
	}

	resolveBlockSeq.resolveBlockSeq = resolveBlockSeq$1;
	return resolveBlockSeq;
}

var resolveFlowCollection = {};

var resolveEnd = {};

var hasRequiredResolveEnd;

function requireResolveEnd () {
	if (hasRequiredResolveEnd) return resolveEnd;
	hasRequiredResolveEnd = 1;

	function resolveEnd$1(end, offset, reqSpace, onError) {
	    let comment = '';
	    if (end) {
	        let hasSpace = false;
	        let sep = '';
	        for (const token of end) {
	            const { source, type } = token;
	            switch (type) {
	                case 'space':
	                    hasSpace = true;
	                    break;
	                case 'comment': {
	                    if (reqSpace && !hasSpace)
	                        onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
	                    const cb = source.substring(1) || ' ';
	                    if (!comment)
	                        comment = cb;
	                    else
	                        comment += sep + cb;
	                    sep = '';
	                    break;
	                }
	                case 'newline':
	                    if (comment)
	                        sep += source;
	                    hasSpace = true;
	                    break;
	                default:
	                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${type} at node end`);
	            }
	            offset += source.length;
	        }
	    }
	    return { comment, offset };
	}

	resolveEnd.resolveEnd = resolveEnd$1;
	return resolveEnd;
}

var hasRequiredResolveFlowCollection;

function requireResolveFlowCollection () {
	if (hasRequiredResolveFlowCollection) return resolveFlowCollection;
	hasRequiredResolveFlowCollection = 1;

	var identity = requireIdentity();
	var Pair = requirePair();
	var YAMLMap = requireYAMLMap();
	var YAMLSeq = requireYAMLSeq();
	var resolveEnd = requireResolveEnd();
	var resolveProps = requireResolveProps();
	var utilContainsNewline = requireUtilContainsNewline();
	var utilMapIncludes = requireUtilMapIncludes();

	const blockMsg = 'Block collections are not allowed within flow collections';
	const isBlock = (token) => token && (token.type === 'block-map' || token.type === 'block-seq');
	function resolveFlowCollection$1({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
	    const isMap = fc.start.source === '{';
	    const fcName = isMap ? 'flow map' : 'flow sequence';
	    const NodeClass = (tag?.nodeClass ?? (isMap ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq));
	    const coll = new NodeClass(ctx.schema);
	    coll.flow = true;
	    const atRoot = ctx.atRoot;
	    if (atRoot)
	        ctx.atRoot = false;
	    if (ctx.atKey)
	        ctx.atKey = false;
	    let offset = fc.offset + fc.start.source.length;
	    for (let i = 0; i < fc.items.length; ++i) {
	        const collItem = fc.items[i];
	        const { start, key, sep, value } = collItem;
	        const props = resolveProps.resolveProps(start, {
	            flow: fcName,
	            indicator: 'explicit-key-ind',
	            next: key ?? sep?.[0],
	            offset,
	            onError,
	            parentIndent: fc.indent,
	            startOnNewline: false
	        });
	        if (!props.found) {
	            if (!props.anchor && !props.tag && !sep && !value) {
	                if (i === 0 && props.comma)
	                    onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
	                else if (i < fc.items.length - 1)
	                    onError(props.start, 'UNEXPECTED_TOKEN', `Unexpected empty item in ${fcName}`);
	                if (props.comment) {
	                    if (coll.comment)
	                        coll.comment += '\n' + props.comment;
	                    else
	                        coll.comment = props.comment;
	                }
	                offset = props.end;
	                continue;
	            }
	            if (!isMap && ctx.options.strict && utilContainsNewline.containsNewline(key))
	                onError(key, // checked by containsNewline()
	                'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
	        }
	        if (i === 0) {
	            if (props.comma)
	                onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
	        }
	        else {
	            if (!props.comma)
	                onError(props.start, 'MISSING_CHAR', `Missing , between ${fcName} items`);
	            if (props.comment) {
	                let prevItemComment = '';
	                loop: for (const st of start) {
	                    switch (st.type) {
	                        case 'comma':
	                        case 'space':
	                            break;
	                        case 'comment':
	                            prevItemComment = st.source.substring(1);
	                            break loop;
	                        default:
	                            break loop;
	                    }
	                }
	                if (prevItemComment) {
	                    let prev = coll.items[coll.items.length - 1];
	                    if (identity.isPair(prev))
	                        prev = prev.value ?? prev.key;
	                    if (prev.comment)
	                        prev.comment += '\n' + prevItemComment;
	                    else
	                        prev.comment = prevItemComment;
	                    props.comment = props.comment.substring(prevItemComment.length + 1);
	                }
	            }
	        }
	        if (!isMap && !sep && !props.found) {
	            // item is a value in a seq
	            // → key & sep are empty, start does not include ? or :
	            const valueNode = value
	                ? composeNode(ctx, value, props, onError)
	                : composeEmptyNode(ctx, props.end, sep, null, props, onError);
	            coll.items.push(valueNode);
	            offset = valueNode.range[2];
	            if (isBlock(value))
	                onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
	        }
	        else {
	            // item is a key+value pair
	            // key value
	            ctx.atKey = true;
	            const keyStart = props.end;
	            const keyNode = key
	                ? composeNode(ctx, key, props, onError)
	                : composeEmptyNode(ctx, keyStart, start, null, props, onError);
	            if (isBlock(key))
	                onError(keyNode.range, 'BLOCK_IN_FLOW', blockMsg);
	            ctx.atKey = false;
	            // value properties
	            const valueProps = resolveProps.resolveProps(sep ?? [], {
	                flow: fcName,
	                indicator: 'map-value-ind',
	                next: value,
	                offset: keyNode.range[2],
	                onError,
	                parentIndent: fc.indent,
	                startOnNewline: false
	            });
	            if (valueProps.found) {
	                if (!isMap && !props.found && ctx.options.strict) {
	                    if (sep)
	                        for (const st of sep) {
	                            if (st === valueProps.found)
	                                break;
	                            if (st.type === 'newline') {
	                                onError(st, 'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
	                                break;
	                            }
	                        }
	                    if (props.start < valueProps.found.offset - 1024)
	                        onError(valueProps.found, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit flow sequence key');
	                }
	            }
	            else if (value) {
	                if ('source' in value && value.source?.[0] === ':')
	                    onError(value, 'MISSING_CHAR', `Missing space after : in ${fcName}`);
	                else
	                    onError(valueProps.start, 'MISSING_CHAR', `Missing , or : between ${fcName} items`);
	            }
	            // value value
	            const valueNode = value
	                ? composeNode(ctx, value, valueProps, onError)
	                : valueProps.found
	                    ? composeEmptyNode(ctx, valueProps.end, sep, null, valueProps, onError)
	                    : null;
	            if (valueNode) {
	                if (isBlock(value))
	                    onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
	            }
	            else if (valueProps.comment) {
	                if (keyNode.comment)
	                    keyNode.comment += '\n' + valueProps.comment;
	                else
	                    keyNode.comment = valueProps.comment;
	            }
	            const pair = new Pair.Pair(keyNode, valueNode);
	            if (ctx.options.keepSourceTokens)
	                pair.srcToken = collItem;
	            if (isMap) {
	                const map = coll;
	                if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
	                    onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
	                map.items.push(pair);
	            }
	            else {
	                const map = new YAMLMap.YAMLMap(ctx.schema);
	                map.flow = true;
	                map.items.push(pair);
	                const endRange = (valueNode ?? keyNode).range;
	                map.range = [keyNode.range[0], endRange[1], endRange[2]];
	                coll.items.push(map);
	            }
	            offset = valueNode ? valueNode.range[2] : valueProps.end;
	        }
	    }
	    const expectedEnd = isMap ? '}' : ']';
	    const [ce, ...ee] = fc.end;
	    let cePos = offset;
	    if (ce?.source === expectedEnd)
	        cePos = ce.offset + ce.source.length;
	    else {
	        const name = fcName[0].toUpperCase() + fcName.substring(1);
	        const msg = atRoot
	            ? `${name} must end with a ${expectedEnd}`
	            : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
	        onError(offset, atRoot ? 'MISSING_CHAR' : 'BAD_INDENT', msg);
	        if (ce && ce.source.length !== 1)
	            ee.unshift(ce);
	    }
	    if (ee.length > 0) {
	        const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
	        if (end.comment) {
	            if (coll.comment)
	                coll.comment += '\n' + end.comment;
	            else
	                coll.comment = end.comment;
	        }
	        coll.range = [fc.offset, cePos, end.offset];
	    }
	    else {
	        coll.range = [fc.offset, cePos, cePos];
	    }
	    return coll;
	}

	resolveFlowCollection.resolveFlowCollection = resolveFlowCollection$1;
	return resolveFlowCollection;
}

var hasRequiredComposeCollection;

function requireComposeCollection () {
	if (hasRequiredComposeCollection) return composeCollection;
	hasRequiredComposeCollection = 1;

	var identity = requireIdentity();
	var Scalar = requireScalar();
	var YAMLMap = requireYAMLMap();
	var YAMLSeq = requireYAMLSeq();
	var resolveBlockMap = requireResolveBlockMap();
	var resolveBlockSeq = requireResolveBlockSeq();
	var resolveFlowCollection = requireResolveFlowCollection();

	function resolveCollection(CN, ctx, token, onError, tagName, tag) {
	    const coll = token.type === 'block-map'
	        ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag)
	        : token.type === 'block-seq'
	            ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag)
	            : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
	    const Coll = coll.constructor;
	    // If we got a tagName matching the class, or the tag name is '!',
	    // then use the tagName from the node class used to create it.
	    if (tagName === '!' || tagName === Coll.tagName) {
	        coll.tag = Coll.tagName;
	        return coll;
	    }
	    if (tagName)
	        coll.tag = tagName;
	    return coll;
	}
	function composeCollection$1(CN, ctx, token, props, onError) {
	    const tagToken = props.tag;
	    const tagName = !tagToken
	        ? null
	        : ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg));
	    if (token.type === 'block-seq') {
	        const { anchor, newlineAfterProp: nl } = props;
	        const lastProp = anchor && tagToken
	            ? anchor.offset > tagToken.offset
	                ? anchor
	                : tagToken
	            : (anchor ?? tagToken);
	        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
	            const message = 'Missing newline after block sequence props';
	            onError(lastProp, 'MISSING_CHAR', message);
	        }
	    }
	    const expType = token.type === 'block-map'
	        ? 'map'
	        : token.type === 'block-seq'
	            ? 'seq'
	            : token.start.source === '{'
	                ? 'map'
	                : 'seq';
	    // shortcut: check if it's a generic YAMLMap or YAMLSeq
	    // before jumping into the custom tag logic.
	    if (!tagToken ||
	        !tagName ||
	        tagName === '!' ||
	        (tagName === YAMLMap.YAMLMap.tagName && expType === 'map') ||
	        (tagName === YAMLSeq.YAMLSeq.tagName && expType === 'seq')) {
	        return resolveCollection(CN, ctx, token, onError, tagName);
	    }
	    let tag = ctx.schema.tags.find(t => t.tag === tagName && t.collection === expType);
	    if (!tag) {
	        const kt = ctx.schema.knownTags[tagName];
	        if (kt?.collection === expType) {
	            ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
	            tag = kt;
	        }
	        else {
	            if (kt) {
	                onError(tagToken, 'BAD_COLLECTION_TYPE', `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? 'scalar'}`, true);
	            }
	            else {
	                onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, true);
	            }
	            return resolveCollection(CN, ctx, token, onError, tagName);
	        }
	    }
	    const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
	    const res = tag.resolve?.(coll, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg), ctx.options) ?? coll;
	    const node = identity.isNode(res)
	        ? res
	        : new Scalar.Scalar(res);
	    node.range = coll.range;
	    node.tag = tagName;
	    if (tag?.format)
	        node.format = tag.format;
	    return node;
	}

	composeCollection.composeCollection = composeCollection$1;
	return composeCollection;
}

var composeScalar = {};

var resolveBlockScalar = {};

var hasRequiredResolveBlockScalar;

function requireResolveBlockScalar () {
	if (hasRequiredResolveBlockScalar) return resolveBlockScalar;
	hasRequiredResolveBlockScalar = 1;

	var Scalar = requireScalar();

	function resolveBlockScalar$1(ctx, scalar, onError) {
	    const start = scalar.offset;
	    const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
	    if (!header)
	        return { value: '', type: null, comment: '', range: [start, start, start] };
	    const type = header.mode === '>' ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
	    const lines = scalar.source ? splitLines(scalar.source) : [];
	    // determine the end of content & start of chomping
	    let chompStart = lines.length;
	    for (let i = lines.length - 1; i >= 0; --i) {
	        const content = lines[i][1];
	        if (content === '' || content === '\r')
	            chompStart = i;
	        else
	            break;
	    }
	    // shortcut for empty contents
	    if (chompStart === 0) {
	        const value = header.chomp === '+' && lines.length > 0
	            ? '\n'.repeat(Math.max(1, lines.length - 1))
	            : '';
	        let end = start + header.length;
	        if (scalar.source)
	            end += scalar.source.length;
	        return { value, type, comment: header.comment, range: [start, end, end] };
	    }
	    // find the indentation level to trim from start
	    let trimIndent = scalar.indent + header.indent;
	    let offset = scalar.offset + header.length;
	    let contentStart = 0;
	    for (let i = 0; i < chompStart; ++i) {
	        const [indent, content] = lines[i];
	        if (content === '' || content === '\r') {
	            if (header.indent === 0 && indent.length > trimIndent)
	                trimIndent = indent.length;
	        }
	        else {
	            if (indent.length < trimIndent) {
	                const message = 'Block scalars with more-indented leading empty lines must use an explicit indentation indicator';
	                onError(offset + indent.length, 'MISSING_CHAR', message);
	            }
	            if (header.indent === 0)
	                trimIndent = indent.length;
	            contentStart = i;
	            if (trimIndent === 0 && !ctx.atRoot) {
	                const message = 'Block scalar values in collections must be indented';
	                onError(offset, 'BAD_INDENT', message);
	            }
	            break;
	        }
	        offset += indent.length + content.length + 1;
	    }
	    // include trailing more-indented empty lines in content
	    for (let i = lines.length - 1; i >= chompStart; --i) {
	        if (lines[i][0].length > trimIndent)
	            chompStart = i + 1;
	    }
	    let value = '';
	    let sep = '';
	    let prevMoreIndented = false;
	    // leading whitespace is kept intact
	    for (let i = 0; i < contentStart; ++i)
	        value += lines[i][0].slice(trimIndent) + '\n';
	    for (let i = contentStart; i < chompStart; ++i) {
	        let [indent, content] = lines[i];
	        offset += indent.length + content.length + 1;
	        const crlf = content[content.length - 1] === '\r';
	        if (crlf)
	            content = content.slice(0, -1);
	        /* istanbul ignore if already caught in lexer */
	        if (content && indent.length < trimIndent) {
	            const src = header.indent
	                ? 'explicit indentation indicator'
	                : 'first line';
	            const message = `Block scalar lines must not be less indented than their ${src}`;
	            onError(offset - content.length - (crlf ? 2 : 1), 'BAD_INDENT', message);
	            indent = '';
	        }
	        if (type === Scalar.Scalar.BLOCK_LITERAL) {
	            value += sep + indent.slice(trimIndent) + content;
	            sep = '\n';
	        }
	        else if (indent.length > trimIndent || content[0] === '\t') {
	            // more-indented content within a folded block
	            if (sep === ' ')
	                sep = '\n';
	            else if (!prevMoreIndented && sep === '\n')
	                sep = '\n\n';
	            value += sep + indent.slice(trimIndent) + content;
	            sep = '\n';
	            prevMoreIndented = true;
	        }
	        else if (content === '') {
	            // empty line
	            if (sep === '\n')
	                value += '\n';
	            else
	                sep = '\n';
	        }
	        else {
	            value += sep + content;
	            sep = ' ';
	            prevMoreIndented = false;
	        }
	    }
	    switch (header.chomp) {
	        case '-':
	            break;
	        case '+':
	            for (let i = chompStart; i < lines.length; ++i)
	                value += '\n' + lines[i][0].slice(trimIndent);
	            if (value[value.length - 1] !== '\n')
	                value += '\n';
	            break;
	        default:
	            value += '\n';
	    }
	    const end = start + header.length + scalar.source.length;
	    return { value, type, comment: header.comment, range: [start, end, end] };
	}
	function parseBlockScalarHeader({ offset, props }, strict, onError) {
	    /* istanbul ignore if should not happen */
	    if (props[0].type !== 'block-scalar-header') {
	        onError(props[0], 'IMPOSSIBLE', 'Block scalar header not found');
	        return null;
	    }
	    const { source } = props[0];
	    const mode = source[0];
	    let indent = 0;
	    let chomp = '';
	    let error = -1;
	    for (let i = 1; i < source.length; ++i) {
	        const ch = source[i];
	        if (!chomp && (ch === '-' || ch === '+'))
	            chomp = ch;
	        else {
	            const n = Number(ch);
	            if (!indent && n)
	                indent = n;
	            else if (error === -1)
	                error = offset + i;
	        }
	    }
	    if (error !== -1)
	        onError(error, 'UNEXPECTED_TOKEN', `Block scalar header includes extra characters: ${source}`);
	    let hasSpace = false;
	    let comment = '';
	    let length = source.length;
	    for (let i = 1; i < props.length; ++i) {
	        const token = props[i];
	        switch (token.type) {
	            case 'space':
	                hasSpace = true;
	            // fallthrough
	            case 'newline':
	                length += token.source.length;
	                break;
	            case 'comment':
	                if (strict && !hasSpace) {
	                    const message = 'Comments must be separated from other tokens by white space characters';
	                    onError(token, 'MISSING_CHAR', message);
	                }
	                length += token.source.length;
	                comment = token.source.substring(1);
	                break;
	            case 'error':
	                onError(token, 'UNEXPECTED_TOKEN', token.message);
	                length += token.source.length;
	                break;
	            /* istanbul ignore next should not happen */
	            default: {
	                const message = `Unexpected token in block scalar header: ${token.type}`;
	                onError(token, 'UNEXPECTED_TOKEN', message);
	                const ts = token.source;
	                if (ts && typeof ts === 'string')
	                    length += ts.length;
	            }
	        }
	    }
	    return { mode, indent, chomp, comment, length };
	}
	/** @returns Array of lines split up as `[indent, content]` */
	function splitLines(source) {
	    const split = source.split(/\n( *)/);
	    const first = split[0];
	    const m = first.match(/^( *)/);
	    const line0 = m?.[1]
	        ? [m[1], first.slice(m[1].length)]
	        : ['', first];
	    const lines = [line0];
	    for (let i = 1; i < split.length; i += 2)
	        lines.push([split[i], split[i + 1]]);
	    return lines;
	}

	resolveBlockScalar.resolveBlockScalar = resolveBlockScalar$1;
	return resolveBlockScalar;
}

var resolveFlowScalar = {};

var hasRequiredResolveFlowScalar;

function requireResolveFlowScalar () {
	if (hasRequiredResolveFlowScalar) return resolveFlowScalar;
	hasRequiredResolveFlowScalar = 1;

	var Scalar = requireScalar();
	var resolveEnd = requireResolveEnd();

	function resolveFlowScalar$1(scalar, strict, onError) {
	    const { offset, type, source, end } = scalar;
	    let _type;
	    let value;
	    const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
	    switch (type) {
	        case 'scalar':
	            _type = Scalar.Scalar.PLAIN;
	            value = plainValue(source, _onError);
	            break;
	        case 'single-quoted-scalar':
	            _type = Scalar.Scalar.QUOTE_SINGLE;
	            value = singleQuotedValue(source, _onError);
	            break;
	        case 'double-quoted-scalar':
	            _type = Scalar.Scalar.QUOTE_DOUBLE;
	            value = doubleQuotedValue(source, _onError);
	            break;
	        /* istanbul ignore next should not happen */
	        default:
	            onError(scalar, 'UNEXPECTED_TOKEN', `Expected a flow scalar value, but found: ${type}`);
	            return {
	                value: '',
	                type: null,
	                comment: '',
	                range: [offset, offset + source.length, offset + source.length]
	            };
	    }
	    const valueEnd = offset + source.length;
	    const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
	    return {
	        value,
	        type: _type,
	        comment: re.comment,
	        range: [offset, valueEnd, re.offset]
	    };
	}
	function plainValue(source, onError) {
	    let badChar = '';
	    switch (source[0]) {
	        /* istanbul ignore next should not happen */
	        case '\t':
	            badChar = 'a tab character';
	            break;
	        case ',':
	            badChar = 'flow indicator character ,';
	            break;
	        case '%':
	            badChar = 'directive indicator character %';
	            break;
	        case '|':
	        case '>': {
	            badChar = `block scalar indicator ${source[0]}`;
	            break;
	        }
	        case '@':
	        case '`': {
	            badChar = `reserved character ${source[0]}`;
	            break;
	        }
	    }
	    if (badChar)
	        onError(0, 'BAD_SCALAR_START', `Plain value cannot start with ${badChar}`);
	    return unfoldLines(source);
	}
	function singleQuotedValue(source, onError) {
	    if (source[source.length - 1] !== "'" || source.length === 1)
	        onError(source.length, 'MISSING_CHAR', "Missing closing 'quote");
	    return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
	}
	function unfoldLines(source) {
	    const line = /(.*?)\r?\n/sy;
	    let match = line.exec(source);
	    if (!match)
	        return source;
	    /**
	     * The negative lookbehinds in these RegExps are to
	     * prevent causing a polynomial search time in certain cases.
	     *
	     * The try-catch is for Safari < 16.4 and other old browsers:
	     * https://caniuse.com/js-regexp-lookbehind
	     */
	    let trimEnd, trimBoth;
	    try {
	        trimEnd = new RegExp('(?<![ \t])[ \t]+$');
	        trimBoth = new RegExp('^[ \t]+|(?<![ \t])[ \t]+$', 'g');
	    }
	    catch {
	        trimEnd = /[ \t]+$/;
	        trimBoth = /^[ \t]+|[ \t]+$/g;
	    }
	    let res = match[1].replace(trimEnd, '');
	    let sep = ' ';
	    let pos = line.lastIndex;
	    while ((match = line.exec(source))) {
	        const lm = match[1].replace(trimBoth, '');
	        if (lm === '') {
	            if (sep === '\n')
	                res += sep;
	            else
	                sep = '\n';
	        }
	        else {
	            res += sep + lm;
	            sep = ' ';
	        }
	        pos = line.lastIndex;
	    }
	    const last = /[ \t]*(.*)/sy;
	    last.lastIndex = pos;
	    match = last.exec(source);
	    return res + sep + (match?.[1] ?? '');
	}
	function doubleQuotedValue(source, onError) {
	    let res = '';
	    for (let i = 1; i < source.length - 1; ++i) {
	        const ch = source[i];
	        if (ch === '\r' && source[i + 1] === '\n')
	            continue;
	        if (ch === '\n') {
	            const { fold, offset } = foldNewline(source, i);
	            res += fold;
	            i = offset;
	        }
	        else if (ch === '\\') {
	            let next = source[++i];
	            const cc = escapeCodes[next];
	            if (cc)
	                res += cc;
	            else if (next === '\n') {
	                // skip escaped newlines, but still trim the following line
	                next = source[i + 1];
	                while (next === ' ' || next === '\t')
	                    next = source[++i + 1];
	            }
	            else if (next === '\r' && source[i + 1] === '\n') {
	                // skip escaped CRLF newlines, but still trim the following line
	                next = source[++i + 1];
	                while (next === ' ' || next === '\t')
	                    next = source[++i + 1];
	            }
	            else if (next === 'x' || next === 'u' || next === 'U') {
	                const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
	                res += parseCharCode(source, i + 1, length, onError);
	                i += length;
	            }
	            else {
	                const raw = source.substr(i - 1, 2);
	                onError(i - 1, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
	                res += raw;
	            }
	        }
	        else if (ch === ' ' || ch === '\t') {
	            // trim trailing whitespace
	            const wsStart = i;
	            let next = source[i + 1];
	            while (next === ' ' || next === '\t')
	                next = source[++i + 1];
	            if (next !== '\n' && !(next === '\r' && source[i + 2] === '\n'))
	                res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
	        }
	        else {
	            res += ch;
	        }
	    }
	    if (source[source.length - 1] !== '"' || source.length === 1)
	        onError(source.length, 'MISSING_CHAR', 'Missing closing "quote');
	    return res;
	}
	/**
	 * Fold a single newline into a space, multiple newlines to N - 1 newlines.
	 * Presumes `source[offset] === '\n'`
	 */
	function foldNewline(source, offset) {
	    let fold = '';
	    let ch = source[offset + 1];
	    while (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
	        if (ch === '\r' && source[offset + 2] !== '\n')
	            break;
	        if (ch === '\n')
	            fold += '\n';
	        offset += 1;
	        ch = source[offset + 1];
	    }
	    if (!fold)
	        fold = ' ';
	    return { fold, offset };
	}
	const escapeCodes = {
	    '0': '\0', // null character
	    a: '\x07', // bell character
	    b: '\b', // backspace
	    e: '\x1b', // escape character
	    f: '\f', // form feed
	    n: '\n', // line feed
	    r: '\r', // carriage return
	    t: '\t', // horizontal tab
	    v: '\v', // vertical tab
	    N: '\u0085', // Unicode next line
	    _: '\u00a0', // Unicode non-breaking space
	    L: '\u2028', // Unicode line separator
	    P: '\u2029', // Unicode paragraph separator
	    ' ': ' ',
	    '"': '"',
	    '/': '/',
	    '\\': '\\',
	    '\t': '\t'
	};
	function parseCharCode(source, offset, length, onError) {
	    const cc = source.substr(offset, length);
	    const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
	    const code = ok ? parseInt(cc, 16) : NaN;
	    try {
	        return String.fromCodePoint(code);
	    }
	    catch {
	        const raw = source.substr(offset - 2, length + 2);
	        onError(offset - 2, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
	        return raw;
	    }
	}

	resolveFlowScalar.resolveFlowScalar = resolveFlowScalar$1;
	return resolveFlowScalar;
}

var hasRequiredComposeScalar;

function requireComposeScalar () {
	if (hasRequiredComposeScalar) return composeScalar;
	hasRequiredComposeScalar = 1;

	var identity = requireIdentity();
	var Scalar = requireScalar();
	var resolveBlockScalar = requireResolveBlockScalar();
	var resolveFlowScalar = requireResolveFlowScalar();

	function composeScalar$1(ctx, token, tagToken, onError) {
	    const { value, type, comment, range } = token.type === 'block-scalar'
	        ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError)
	        : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
	    const tagName = tagToken
	        ? ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg))
	        : null;
	    let tag;
	    if (ctx.options.stringKeys && ctx.atKey) {
	        tag = ctx.schema[identity.SCALAR];
	    }
	    else if (tagName)
	        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
	    else if (token.type === 'scalar')
	        tag = findScalarTagByTest(ctx, value, token, onError);
	    else
	        tag = ctx.schema[identity.SCALAR];
	    let scalar;
	    try {
	        const res = tag.resolve(value, msg => onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg), ctx.options);
	        scalar = identity.isScalar(res) ? res : new Scalar.Scalar(res);
	    }
	    catch (error) {
	        const msg = error instanceof Error ? error.message : String(error);
	        onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg);
	        scalar = new Scalar.Scalar(value);
	    }
	    scalar.range = range;
	    scalar.source = value;
	    if (type)
	        scalar.type = type;
	    if (tagName)
	        scalar.tag = tagName;
	    if (tag.format)
	        scalar.format = tag.format;
	    if (comment)
	        scalar.comment = comment;
	    return scalar;
	}
	function findScalarTagByName(schema, value, tagName, tagToken, onError) {
	    if (tagName === '!')
	        return schema[identity.SCALAR]; // non-specific tag
	    const matchWithTest = [];
	    for (const tag of schema.tags) {
	        if (!tag.collection && tag.tag === tagName) {
	            if (tag.default && tag.test)
	                matchWithTest.push(tag);
	            else
	                return tag;
	        }
	    }
	    for (const tag of matchWithTest)
	        if (tag.test?.test(value))
	            return tag;
	    const kt = schema.knownTags[tagName];
	    if (kt && !kt.collection) {
	        // Ensure that the known tag is available for stringifying,
	        // but does not get used by default.
	        schema.tags.push(Object.assign({}, kt, { default: false, test: undefined }));
	        return kt;
	    }
	    onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, tagName !== 'tag:yaml.org,2002:str');
	    return schema[identity.SCALAR];
	}
	function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
	    const tag = schema.tags.find(tag => (tag.default === true || (atKey && tag.default === 'key')) &&
	        tag.test?.test(value)) || schema[identity.SCALAR];
	    if (schema.compat) {
	        const compat = schema.compat.find(tag => tag.default && tag.test?.test(value)) ??
	            schema[identity.SCALAR];
	        if (tag.tag !== compat.tag) {
	            const ts = directives.tagString(tag.tag);
	            const cs = directives.tagString(compat.tag);
	            const msg = `Value may be parsed as either ${ts} or ${cs}`;
	            onError(token, 'TAG_RESOLVE_FAILED', msg, true);
	        }
	    }
	    return tag;
	}

	composeScalar.composeScalar = composeScalar$1;
	return composeScalar;
}

var utilEmptyScalarPosition = {};

var hasRequiredUtilEmptyScalarPosition;

function requireUtilEmptyScalarPosition () {
	if (hasRequiredUtilEmptyScalarPosition) return utilEmptyScalarPosition;
	hasRequiredUtilEmptyScalarPosition = 1;

	function emptyScalarPosition(offset, before, pos) {
	    if (before) {
	        pos ?? (pos = before.length);
	        for (let i = pos - 1; i >= 0; --i) {
	            let st = before[i];
	            switch (st.type) {
	                case 'space':
	                case 'comment':
	                case 'newline':
	                    offset -= st.source.length;
	                    continue;
	            }
	            // Technically, an empty scalar is immediately after the last non-empty
	            // node, but it's more useful to place it after any whitespace.
	            st = before[++i];
	            while (st?.type === 'space') {
	                offset += st.source.length;
	                st = before[++i];
	            }
	            break;
	        }
	    }
	    return offset;
	}

	utilEmptyScalarPosition.emptyScalarPosition = emptyScalarPosition;
	return utilEmptyScalarPosition;
}

var hasRequiredComposeNode;

function requireComposeNode () {
	if (hasRequiredComposeNode) return composeNode;
	hasRequiredComposeNode = 1;

	var Alias = requireAlias();
	var identity = requireIdentity();
	var composeCollection = requireComposeCollection();
	var composeScalar = requireComposeScalar();
	var resolveEnd = requireResolveEnd();
	var utilEmptyScalarPosition = requireUtilEmptyScalarPosition();

	const CN = { composeNode: composeNode$1, composeEmptyNode };
	function composeNode$1(ctx, token, props, onError) {
	    const atKey = ctx.atKey;
	    const { spaceBefore, comment, anchor, tag } = props;
	    let node;
	    let isSrcToken = true;
	    switch (token.type) {
	        case 'alias':
	            node = composeAlias(ctx, token, onError);
	            if (anchor || tag)
	                onError(token, 'ALIAS_PROPS', 'An alias node must not specify any properties');
	            break;
	        case 'scalar':
	        case 'single-quoted-scalar':
	        case 'double-quoted-scalar':
	        case 'block-scalar':
	            node = composeScalar.composeScalar(ctx, token, tag, onError);
	            if (anchor)
	                node.anchor = anchor.source.substring(1);
	            break;
	        case 'block-map':
	        case 'block-seq':
	        case 'flow-collection':
	            try {
	                node = composeCollection.composeCollection(CN, ctx, token, props, onError);
	                if (anchor)
	                    node.anchor = anchor.source.substring(1);
	            }
	            catch (error) {
	                // Almost certainly here due to a stack overflow
	                const message = error instanceof Error ? error.message : String(error);
	                onError(token, 'RESOURCE_EXHAUSTION', message);
	            }
	            break;
	        default: {
	            const message = token.type === 'error'
	                ? token.message
	                : `Unsupported token (type: ${token.type})`;
	            onError(token, 'UNEXPECTED_TOKEN', message);
	            isSrcToken = false;
	        }
	    }
	    node ?? (node = composeEmptyNode(ctx, token.offset, undefined, null, props, onError));
	    if (anchor && node.anchor === '')
	        onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
	    if (atKey &&
	        ctx.options.stringKeys &&
	        (!identity.isScalar(node) ||
	            typeof node.value !== 'string' ||
	            (node.tag && node.tag !== 'tag:yaml.org,2002:str'))) {
	        const msg = 'With stringKeys, all keys must be strings';
	        onError(tag ?? token, 'NON_STRING_KEY', msg);
	    }
	    if (spaceBefore)
	        node.spaceBefore = true;
	    if (comment) {
	        if (token.type === 'scalar' && token.source === '')
	            node.comment = comment;
	        else
	            node.commentBefore = comment;
	    }
	    // @ts-expect-error Type checking misses meaning of isSrcToken
	    if (ctx.options.keepSourceTokens && isSrcToken)
	        node.srcToken = token;
	    return node;
	}
	function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
	    const token = {
	        type: 'scalar',
	        offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before, pos),
	        indent: -1,
	        source: ''
	    };
	    const node = composeScalar.composeScalar(ctx, token, tag, onError);
	    if (anchor) {
	        node.anchor = anchor.source.substring(1);
	        if (node.anchor === '')
	            onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
	    }
	    if (spaceBefore)
	        node.spaceBefore = true;
	    if (comment) {
	        node.comment = comment;
	        node.range[2] = end;
	    }
	    return node;
	}
	function composeAlias({ options }, { offset, source, end }, onError) {
	    const alias = new Alias.Alias(source.substring(1));
	    if (alias.source === '')
	        onError(offset, 'BAD_ALIAS', 'Alias cannot be an empty string');
	    if (alias.source.endsWith(':'))
	        onError(offset + source.length - 1, 'BAD_ALIAS', 'Alias ending in : is ambiguous', true);
	    const valueEnd = offset + source.length;
	    const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
	    alias.range = [offset, valueEnd, re.offset];
	    if (re.comment)
	        alias.comment = re.comment;
	    return alias;
	}

	composeNode.composeEmptyNode = composeEmptyNode;
	composeNode.composeNode = composeNode$1;
	return composeNode;
}

var hasRequiredComposeDoc;

function requireComposeDoc () {
	if (hasRequiredComposeDoc) return composeDoc;
	hasRequiredComposeDoc = 1;

	var Document = requireDocument();
	var composeNode = requireComposeNode();
	var resolveEnd = requireResolveEnd();
	var resolveProps = requireResolveProps();

	function composeDoc$1(options, directives, { offset, start, value, end }, onError) {
	    const opts = Object.assign({ _directives: directives }, options);
	    const doc = new Document.Document(undefined, opts);
	    const ctx = {
	        atKey: false,
	        atRoot: true,
	        directives: doc.directives,
	        options: doc.options,
	        schema: doc.schema
	    };
	    const props = resolveProps.resolveProps(start, {
	        indicator: 'doc-start',
	        next: value ?? end?.[0],
	        offset,
	        onError,
	        parentIndent: 0,
	        startOnNewline: true
	    });
	    if (props.found) {
	        doc.directives.docStart = true;
	        if (value &&
	            (value.type === 'block-map' || value.type === 'block-seq') &&
	            !props.hasNewline)
	            onError(props.end, 'MISSING_CHAR', 'Block collection cannot start on same line with directives-end marker');
	    }
	    // @ts-expect-error If Contents is set, let's trust the user
	    doc.contents = value
	        ? composeNode.composeNode(ctx, value, props, onError)
	        : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
	    const contentEnd = doc.contents.range[2];
	    const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
	    if (re.comment)
	        doc.comment = re.comment;
	    doc.range = [offset, contentEnd, re.offset];
	    return doc;
	}

	composeDoc.composeDoc = composeDoc$1;
	return composeDoc;
}

var hasRequiredComposer;

function requireComposer () {
	if (hasRequiredComposer) return composer;
	hasRequiredComposer = 1;

	var node_process = require$$0;
	var directives = requireDirectives();
	var Document = requireDocument();
	var errors = requireErrors();
	var identity = requireIdentity();
	var composeDoc = requireComposeDoc();
	var resolveEnd = requireResolveEnd();

	function getErrorPos(src) {
	    if (typeof src === 'number')
	        return [src, src + 1];
	    if (Array.isArray(src))
	        return src.length === 2 ? src : [src[0], src[1]];
	    const { offset, source } = src;
	    return [offset, offset + (typeof source === 'string' ? source.length : 1)];
	}
	function parsePrelude(prelude) {
	    let comment = '';
	    let atComment = false;
	    let afterEmptyLine = false;
	    for (let i = 0; i < prelude.length; ++i) {
	        const source = prelude[i];
	        switch (source[0]) {
	            case '#':
	                comment +=
	                    (comment === '' ? '' : afterEmptyLine ? '\n\n' : '\n') +
	                        (source.substring(1) || ' ');
	                atComment = true;
	                afterEmptyLine = false;
	                break;
	            case '%':
	                if (prelude[i + 1]?.[0] !== '#')
	                    i += 1;
	                atComment = false;
	                break;
	            default:
	                // This may be wrong after doc-end, but in that case it doesn't matter
	                if (!atComment)
	                    afterEmptyLine = true;
	                atComment = false;
	        }
	    }
	    return { comment, afterEmptyLine };
	}
	/**
	 * Compose a stream of CST nodes into a stream of YAML Documents.
	 *
	 * ```ts
	 * import { Composer, Parser } from 'yaml'
	 *
	 * const src: string = ...
	 * const tokens = new Parser().parse(src)
	 * const docs = new Composer().compose(tokens)
	 * ```
	 */
	class Composer {
	    constructor(options = {}) {
	        this.doc = null;
	        this.atDirectives = false;
	        this.prelude = [];
	        this.errors = [];
	        this.warnings = [];
	        this.onError = (source, code, message, warning) => {
	            const pos = getErrorPos(source);
	            if (warning)
	                this.warnings.push(new errors.YAMLWarning(pos, code, message));
	            else
	                this.errors.push(new errors.YAMLParseError(pos, code, message));
	        };
	        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
	        this.directives = new directives.Directives({ version: options.version || '1.2' });
	        this.options = options;
	    }
	    decorate(doc, afterDoc) {
	        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
	        //console.log({ dc: doc.comment, prelude, comment })
	        if (comment) {
	            const dc = doc.contents;
	            if (afterDoc) {
	                doc.comment = doc.comment ? `${doc.comment}\n${comment}` : comment;
	            }
	            else if (afterEmptyLine || doc.directives.docStart || !dc) {
	                doc.commentBefore = comment;
	            }
	            else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
	                let it = dc.items[0];
	                if (identity.isPair(it))
	                    it = it.key;
	                const cb = it.commentBefore;
	                it.commentBefore = cb ? `${comment}\n${cb}` : comment;
	            }
	            else {
	                const cb = dc.commentBefore;
	                dc.commentBefore = cb ? `${comment}\n${cb}` : comment;
	            }
	        }
	        if (afterDoc) {
	            for (let i = 0; i < this.errors.length; ++i)
	                doc.errors.push(this.errors[i]);
	            for (let i = 0; i < this.warnings.length; ++i)
	                doc.warnings.push(this.warnings[i]);
	        }
	        else {
	            doc.errors = this.errors;
	            doc.warnings = this.warnings;
	        }
	        this.prelude = [];
	        this.errors = [];
	        this.warnings = [];
	    }
	    /**
	     * Current stream status information.
	     *
	     * Mostly useful at the end of input for an empty stream.
	     */
	    streamInfo() {
	        return {
	            comment: parsePrelude(this.prelude).comment,
	            directives: this.directives,
	            errors: this.errors,
	            warnings: this.warnings
	        };
	    }
	    /**
	     * Compose tokens into documents.
	     *
	     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
	     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
	     */
	    *compose(tokens, forceDoc = false, endOffset = -1) {
	        for (const token of tokens)
	            yield* this.next(token);
	        yield* this.end(forceDoc, endOffset);
	    }
	    /** Advance the composer by one CST token. */
	    *next(token) {
	        if (node_process.env.LOG_STREAM)
	            console.dir(token, { depth: null });
	        switch (token.type) {
	            case 'directive':
	                this.directives.add(token.source, (offset, message, warning) => {
	                    const pos = getErrorPos(token);
	                    pos[0] += offset;
	                    this.onError(pos, 'BAD_DIRECTIVE', message, warning);
	                });
	                this.prelude.push(token.source);
	                this.atDirectives = true;
	                break;
	            case 'document': {
	                const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
	                if (this.atDirectives && !doc.directives.docStart)
	                    this.onError(token, 'MISSING_CHAR', 'Missing directives-end/doc-start indicator line');
	                this.decorate(doc, false);
	                if (this.doc)
	                    yield this.doc;
	                this.doc = doc;
	                this.atDirectives = false;
	                break;
	            }
	            case 'byte-order-mark':
	            case 'space':
	                break;
	            case 'comment':
	            case 'newline':
	                this.prelude.push(token.source);
	                break;
	            case 'error': {
	                const msg = token.source
	                    ? `${token.message}: ${JSON.stringify(token.source)}`
	                    : token.message;
	                const error = new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg);
	                if (this.atDirectives || !this.doc)
	                    this.errors.push(error);
	                else
	                    this.doc.errors.push(error);
	                break;
	            }
	            case 'doc-end': {
	                if (!this.doc) {
	                    const msg = 'Unexpected doc-end without preceding document';
	                    this.errors.push(new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg));
	                    break;
	                }
	                this.doc.directives.docEnd = true;
	                const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
	                this.decorate(this.doc, true);
	                if (end.comment) {
	                    const dc = this.doc.comment;
	                    this.doc.comment = dc ? `${dc}\n${end.comment}` : end.comment;
	                }
	                this.doc.range[2] = end.offset;
	                break;
	            }
	            default:
	                this.errors.push(new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', `Unsupported token ${token.type}`));
	        }
	    }
	    /**
	     * Call at end of input to yield any remaining document.
	     *
	     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
	     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
	     */
	    *end(forceDoc = false, endOffset = -1) {
	        if (this.doc) {
	            this.decorate(this.doc, true);
	            yield this.doc;
	            this.doc = null;
	        }
	        else if (forceDoc) {
	            const opts = Object.assign({ _directives: this.directives }, this.options);
	            const doc = new Document.Document(undefined, opts);
	            if (this.atDirectives)
	                this.onError(endOffset, 'MISSING_CHAR', 'Missing directives-end indicator line');
	            doc.range = [0, endOffset, endOffset];
	            this.decorate(doc, false);
	            yield doc;
	        }
	    }
	}

	composer.Composer = Composer;
	return composer;
}

var cst = {};

var cstScalar = {};

var hasRequiredCstScalar;

function requireCstScalar () {
	if (hasRequiredCstScalar) return cstScalar;
	hasRequiredCstScalar = 1;

	var resolveBlockScalar = requireResolveBlockScalar();
	var resolveFlowScalar = requireResolveFlowScalar();
	var errors = requireErrors();
	var stringifyString = requireStringifyString();

	function resolveAsScalar(token, strict = true, onError) {
	    if (token) {
	        const _onError = (pos, code, message) => {
	            const offset = typeof pos === 'number' ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
	            if (onError)
	                onError(offset, code, message);
	            else
	                throw new errors.YAMLParseError([offset, offset + 1], code, message);
	        };
	        switch (token.type) {
	            case 'scalar':
	            case 'single-quoted-scalar':
	            case 'double-quoted-scalar':
	                return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
	            case 'block-scalar':
	                return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
	        }
	    }
	    return null;
	}
	/**
	 * Create a new scalar token with `value`
	 *
	 * Values that represent an actual string but may be parsed as a different type should use a `type` other than `'PLAIN'`,
	 * as this function does not support any schema operations and won't check for such conflicts.
	 *
	 * @param value The string representation of the value, which will have its content properly indented.
	 * @param context.end Comments and whitespace after the end of the value, or after the block scalar header. If undefined, a newline will be added.
	 * @param context.implicitKey Being within an implicit key may affect the resolved type of the token's value.
	 * @param context.indent The indent level of the token.
	 * @param context.inFlow Is this scalar within a flow collection? This may affect the resolved type of the token's value.
	 * @param context.offset The offset position of the token.
	 * @param context.type The preferred type of the scalar token. If undefined, the previous type of the `token` will be used, defaulting to `'PLAIN'`.
	 */
	function createScalarToken(value, context) {
	    const { implicitKey = false, indent, inFlow = false, offset = -1, type = 'PLAIN' } = context;
	    const source = stringifyString.stringifyString({ type, value }, {
	        implicitKey,
	        indent: indent > 0 ? ' '.repeat(indent) : '',
	        inFlow,
	        options: { blockQuote: true, lineWidth: -1 }
	    });
	    const end = context.end ?? [
	        { type: 'newline', offset: -1, indent, source: '\n' }
	    ];
	    switch (source[0]) {
	        case '|':
	        case '>': {
	            const he = source.indexOf('\n');
	            const head = source.substring(0, he);
	            const body = source.substring(he + 1) + '\n';
	            const props = [
	                { type: 'block-scalar-header', offset, indent, source: head }
	            ];
	            if (!addEndtoBlockProps(props, end))
	                props.push({ type: 'newline', offset: -1, indent, source: '\n' });
	            return { type: 'block-scalar', offset, indent, props, source: body };
	        }
	        case '"':
	            return { type: 'double-quoted-scalar', offset, indent, source, end };
	        case "'":
	            return { type: 'single-quoted-scalar', offset, indent, source, end };
	        default:
	            return { type: 'scalar', offset, indent, source, end };
	    }
	}
	/**
	 * Set the value of `token` to the given string `value`, overwriting any previous contents and type that it may have.
	 *
	 * Best efforts are made to retain any comments previously associated with the `token`,
	 * though all contents within a collection's `items` will be overwritten.
	 *
	 * Values that represent an actual string but may be parsed as a different type should use a `type` other than `'PLAIN'`,
	 * as this function does not support any schema operations and won't check for such conflicts.
	 *
	 * @param token Any token. If it does not include an `indent` value, the value will be stringified as if it were an implicit key.
	 * @param value The string representation of the value, which will have its content properly indented.
	 * @param context.afterKey In most cases, values after a key should have an additional level of indentation.
	 * @param context.implicitKey Being within an implicit key may affect the resolved type of the token's value.
	 * @param context.inFlow Being within a flow collection may affect the resolved type of the token's value.
	 * @param context.type The preferred type of the scalar token. If undefined, the previous type of the `token` will be used, defaulting to `'PLAIN'`.
	 */
	function setScalarValue(token, value, context = {}) {
	    let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
	    let indent = 'indent' in token ? token.indent : null;
	    if (afterKey && typeof indent === 'number')
	        indent += 2;
	    if (!type)
	        switch (token.type) {
	            case 'single-quoted-scalar':
	                type = 'QUOTE_SINGLE';
	                break;
	            case 'double-quoted-scalar':
	                type = 'QUOTE_DOUBLE';
	                break;
	            case 'block-scalar': {
	                const header = token.props[0];
	                if (header.type !== 'block-scalar-header')
	                    throw new Error('Invalid block scalar header');
	                type = header.source[0] === '>' ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL';
	                break;
	            }
	            default:
	                type = 'PLAIN';
	        }
	    const source = stringifyString.stringifyString({ type, value }, {
	        implicitKey: implicitKey || indent === null,
	        indent: indent !== null && indent > 0 ? ' '.repeat(indent) : '',
	        inFlow,
	        options: { blockQuote: true, lineWidth: -1 }
	    });
	    switch (source[0]) {
	        case '|':
	        case '>':
	            setBlockScalarValue(token, source);
	            break;
	        case '"':
	            setFlowScalarValue(token, source, 'double-quoted-scalar');
	            break;
	        case "'":
	            setFlowScalarValue(token, source, 'single-quoted-scalar');
	            break;
	        default:
	            setFlowScalarValue(token, source, 'scalar');
	    }
	}
	function setBlockScalarValue(token, source) {
	    const he = source.indexOf('\n');
	    const head = source.substring(0, he);
	    const body = source.substring(he + 1) + '\n';
	    if (token.type === 'block-scalar') {
	        const header = token.props[0];
	        if (header.type !== 'block-scalar-header')
	            throw new Error('Invalid block scalar header');
	        header.source = head;
	        token.source = body;
	    }
	    else {
	        const { offset } = token;
	        const indent = 'indent' in token ? token.indent : -1;
	        const props = [
	            { type: 'block-scalar-header', offset, indent, source: head }
	        ];
	        if (!addEndtoBlockProps(props, 'end' in token ? token.end : undefined))
	            props.push({ type: 'newline', offset: -1, indent, source: '\n' });
	        for (const key of Object.keys(token))
	            if (key !== 'type' && key !== 'offset')
	                delete token[key];
	        Object.assign(token, { type: 'block-scalar', indent, props, source: body });
	    }
	}
	/** @returns `true` if last token is a newline */
	function addEndtoBlockProps(props, end) {
	    if (end)
	        for (const st of end)
	            switch (st.type) {
	                case 'space':
	                case 'comment':
	                    props.push(st);
	                    break;
	                case 'newline':
	                    props.push(st);
	                    return true;
	            }
	    return false;
	}
	function setFlowScalarValue(token, source, type) {
	    switch (token.type) {
	        case 'scalar':
	        case 'double-quoted-scalar':
	        case 'single-quoted-scalar':
	            token.type = type;
	            token.source = source;
	            break;
	        case 'block-scalar': {
	            const end = token.props.slice(1);
	            let oa = source.length;
	            if (token.props[0].type === 'block-scalar-header')
	                oa -= token.props[0].source.length;
	            for (const tok of end)
	                tok.offset += oa;
	            delete token.props;
	            Object.assign(token, { type, source, end });
	            break;
	        }
	        case 'block-map':
	        case 'block-seq': {
	            const offset = token.offset + source.length;
	            const nl = { type: 'newline', offset, indent: token.indent, source: '\n' };
	            delete token.items;
	            Object.assign(token, { type, source, end: [nl] });
	            break;
	        }
	        default: {
	            const indent = 'indent' in token ? token.indent : -1;
	            const end = 'end' in token && Array.isArray(token.end)
	                ? token.end.filter(st => st.type === 'space' ||
	                    st.type === 'comment' ||
	                    st.type === 'newline')
	                : [];
	            for (const key of Object.keys(token))
	                if (key !== 'type' && key !== 'offset')
	                    delete token[key];
	            Object.assign(token, { type, indent, source, end });
	        }
	    }
	}

	cstScalar.createScalarToken = createScalarToken;
	cstScalar.resolveAsScalar = resolveAsScalar;
	cstScalar.setScalarValue = setScalarValue;
	return cstScalar;
}

var cstStringify = {};

var hasRequiredCstStringify;

function requireCstStringify () {
	if (hasRequiredCstStringify) return cstStringify;
	hasRequiredCstStringify = 1;

	/**
	 * Stringify a CST document, token, or collection item
	 *
	 * Fair warning: This applies no validation whatsoever, and
	 * simply concatenates the sources in their logical order.
	 */
	const stringify = (cst) => 'type' in cst ? stringifyToken(cst) : stringifyItem(cst);
	function stringifyToken(token) {
	    switch (token.type) {
	        case 'block-scalar': {
	            let res = '';
	            for (const tok of token.props)
	                res += stringifyToken(tok);
	            return res + token.source;
	        }
	        case 'block-map':
	        case 'block-seq': {
	            let res = '';
	            for (const item of token.items)
	                res += stringifyItem(item);
	            return res;
	        }
	        case 'flow-collection': {
	            let res = token.start.source;
	            for (const item of token.items)
	                res += stringifyItem(item);
	            for (const st of token.end)
	                res += st.source;
	            return res;
	        }
	        case 'document': {
	            let res = stringifyItem(token);
	            if (token.end)
	                for (const st of token.end)
	                    res += st.source;
	            return res;
	        }
	        default: {
	            let res = token.source;
	            if ('end' in token && token.end)
	                for (const st of token.end)
	                    res += st.source;
	            return res;
	        }
	    }
	}
	function stringifyItem({ start, key, sep, value }) {
	    let res = '';
	    for (const st of start)
	        res += st.source;
	    if (key)
	        res += stringifyToken(key);
	    if (sep)
	        for (const st of sep)
	            res += st.source;
	    if (value)
	        res += stringifyToken(value);
	    return res;
	}

	cstStringify.stringify = stringify;
	return cstStringify;
}

var cstVisit = {};

var hasRequiredCstVisit;

function requireCstVisit () {
	if (hasRequiredCstVisit) return cstVisit;
	hasRequiredCstVisit = 1;

	const BREAK = Symbol('break visit');
	const SKIP = Symbol('skip children');
	const REMOVE = Symbol('remove item');
	/**
	 * Apply a visitor to a CST document or item.
	 *
	 * Walks through the tree (depth-first) starting from the root, calling a
	 * `visitor` function with two arguments when entering each item:
	 *   - `item`: The current item, which included the following members:
	 *     - `start: SourceToken[]` – Source tokens before the key or value,
	 *       possibly including its anchor or tag.
	 *     - `key?: Token | null` – Set for pair values. May then be `null`, if
	 *       the key before the `:` separator is empty.
	 *     - `sep?: SourceToken[]` – Source tokens between the key and the value,
	 *       which should include the `:` map value indicator if `value` is set.
	 *     - `value?: Token` – The value of a sequence item, or of a map pair.
	 *   - `path`: The steps from the root to the current node, as an array of
	 *     `['key' | 'value', number]` tuples.
	 *
	 * The return value of the visitor may be used to control the traversal:
	 *   - `undefined` (default): Do nothing and continue
	 *   - `visit.SKIP`: Do not visit the children of this token, continue with
	 *      next sibling
	 *   - `visit.BREAK`: Terminate traversal completely
	 *   - `visit.REMOVE`: Remove the current item, then continue with the next one
	 *   - `number`: Set the index of the next step. This is useful especially if
	 *     the index of the current token has changed.
	 *   - `function`: Define the next visitor for this item. After the original
	 *     visitor is called on item entry, next visitors are called after handling
	 *     a non-empty `key` and when exiting the item.
	 */
	function visit(cst, visitor) {
	    if ('type' in cst && cst.type === 'document')
	        cst = { start: cst.start, value: cst.value };
	    _visit(Object.freeze([]), cst, visitor);
	}
	// Without the `as symbol` casts, TS declares these in the `visit`
	// namespace using `var`, but then complains about that because
	// `unique symbol` must be `const`.
	/** Terminate visit traversal completely */
	visit.BREAK = BREAK;
	/** Do not visit the children of the current item */
	visit.SKIP = SKIP;
	/** Remove the current item */
	visit.REMOVE = REMOVE;
	/** Find the item at `path` from `cst` as the root */
	visit.itemAtPath = (cst, path) => {
	    let item = cst;
	    for (const [field, index] of path) {
	        const tok = item?.[field];
	        if (tok && 'items' in tok) {
	            item = tok.items[index];
	        }
	        else
	            return undefined;
	    }
	    return item;
	};
	/**
	 * Get the immediate parent collection of the item at `path` from `cst` as the root.
	 *
	 * Throws an error if the collection is not found, which should never happen if the item itself exists.
	 */
	visit.parentCollection = (cst, path) => {
	    const parent = visit.itemAtPath(cst, path.slice(0, -1));
	    const field = path[path.length - 1][0];
	    const coll = parent?.[field];
	    if (coll && 'items' in coll)
	        return coll;
	    throw new Error('Parent collection not found');
	};
	function _visit(path, item, visitor) {
	    let ctrl = visitor(item, path);
	    if (typeof ctrl === 'symbol')
	        return ctrl;
	    for (const field of ['key', 'value']) {
	        const token = item[field];
	        if (token && 'items' in token) {
	            for (let i = 0; i < token.items.length; ++i) {
	                const ci = _visit(Object.freeze(path.concat([[field, i]])), token.items[i], visitor);
	                if (typeof ci === 'number')
	                    i = ci - 1;
	                else if (ci === BREAK)
	                    return BREAK;
	                else if (ci === REMOVE) {
	                    token.items.splice(i, 1);
	                    i -= 1;
	                }
	            }
	            if (typeof ctrl === 'function' && field === 'key')
	                ctrl = ctrl(item, path);
	        }
	    }
	    return typeof ctrl === 'function' ? ctrl(item, path) : ctrl;
	}

	cstVisit.visit = visit;
	return cstVisit;
}

var hasRequiredCst;

function requireCst () {
	if (hasRequiredCst) return cst;
	hasRequiredCst = 1;

	var cstScalar = requireCstScalar();
	var cstStringify = requireCstStringify();
	var cstVisit = requireCstVisit();

	/** The byte order mark */
	const BOM = '\u{FEFF}';
	/** Start of doc-mode */
	const DOCUMENT = '\x02'; // C0: Start of Text
	/** Unexpected end of flow-mode */
	const FLOW_END = '\x18'; // C0: Cancel
	/** Next token is a scalar value */
	const SCALAR = '\x1f'; // C0: Unit Separator
	/** @returns `true` if `token` is a flow or block collection */
	const isCollection = (token) => !!token && 'items' in token;
	/** @returns `true` if `token` is a flow or block scalar; not an alias */
	const isScalar = (token) => !!token &&
	    (token.type === 'scalar' ||
	        token.type === 'single-quoted-scalar' ||
	        token.type === 'double-quoted-scalar' ||
	        token.type === 'block-scalar');
	/* istanbul ignore next */
	/** Get a printable representation of a lexer token */
	function prettyToken(token) {
	    switch (token) {
	        case BOM:
	            return '<BOM>';
	        case DOCUMENT:
	            return '<DOC>';
	        case FLOW_END:
	            return '<FLOW_END>';
	        case SCALAR:
	            return '<SCALAR>';
	        default:
	            return JSON.stringify(token);
	    }
	}
	/** Identify the type of a lexer token. May return `null` for unknown tokens. */
	function tokenType(source) {
	    switch (source) {
	        case BOM:
	            return 'byte-order-mark';
	        case DOCUMENT:
	            return 'doc-mode';
	        case FLOW_END:
	            return 'flow-error-end';
	        case SCALAR:
	            return 'scalar';
	        case '---':
	            return 'doc-start';
	        case '...':
	            return 'doc-end';
	        case '':
	        case '\n':
	        case '\r\n':
	            return 'newline';
	        case '-':
	            return 'seq-item-ind';
	        case '?':
	            return 'explicit-key-ind';
	        case ':':
	            return 'map-value-ind';
	        case '{':
	            return 'flow-map-start';
	        case '}':
	            return 'flow-map-end';
	        case '[':
	            return 'flow-seq-start';
	        case ']':
	            return 'flow-seq-end';
	        case ',':
	            return 'comma';
	    }
	    switch (source[0]) {
	        case ' ':
	        case '\t':
	            return 'space';
	        case '#':
	            return 'comment';
	        case '%':
	            return 'directive-line';
	        case '*':
	            return 'alias';
	        case '&':
	            return 'anchor';
	        case '!':
	            return 'tag';
	        case "'":
	            return 'single-quoted-scalar';
	        case '"':
	            return 'double-quoted-scalar';
	        case '|':
	        case '>':
	            return 'block-scalar-header';
	    }
	    return null;
	}

	cst.createScalarToken = cstScalar.createScalarToken;
	cst.resolveAsScalar = cstScalar.resolveAsScalar;
	cst.setScalarValue = cstScalar.setScalarValue;
	cst.stringify = cstStringify.stringify;
	cst.visit = cstVisit.visit;
	cst.BOM = BOM;
	cst.DOCUMENT = DOCUMENT;
	cst.FLOW_END = FLOW_END;
	cst.SCALAR = SCALAR;
	cst.isCollection = isCollection;
	cst.isScalar = isScalar;
	cst.prettyToken = prettyToken;
	cst.tokenType = tokenType;
	return cst;
}

var lexer = {};

var hasRequiredLexer;

function requireLexer () {
	if (hasRequiredLexer) return lexer;
	hasRequiredLexer = 1;

	var cst = requireCst();

	/*
	START -> stream

	stream
	  directive -> line-end -> stream
	  indent + line-end -> stream
	  [else] -> line-start

	line-end
	  comment -> line-end
	  newline -> .
	  input-end -> END

	line-start
	  doc-start -> doc
	  doc-end -> stream
	  [else] -> indent -> block-start

	block-start
	  seq-item-start -> block-start
	  explicit-key-start -> block-start
	  map-value-start -> block-start
	  [else] -> doc

	doc
	  line-end -> line-start
	  spaces -> doc
	  anchor -> doc
	  tag -> doc
	  flow-start -> flow -> doc
	  flow-end -> error -> doc
	  seq-item-start -> error -> doc
	  explicit-key-start -> error -> doc
	  map-value-start -> doc
	  alias -> doc
	  quote-start -> quoted-scalar -> doc
	  block-scalar-header -> line-end -> block-scalar(min) -> line-start
	  [else] -> plain-scalar(false, min) -> doc

	flow
	  line-end -> flow
	  spaces -> flow
	  anchor -> flow
	  tag -> flow
	  flow-start -> flow -> flow
	  flow-end -> .
	  seq-item-start -> error -> flow
	  explicit-key-start -> flow
	  map-value-start -> flow
	  alias -> flow
	  quote-start -> quoted-scalar -> flow
	  comma -> flow
	  [else] -> plain-scalar(true, 0) -> flow

	quoted-scalar
	  quote-end -> .
	  [else] -> quoted-scalar

	block-scalar(min)
	  newline + peek(indent < min) -> .
	  [else] -> block-scalar(min)

	plain-scalar(is-flow, min)
	  scalar-end(is-flow) -> .
	  peek(newline + (indent < min)) -> .
	  [else] -> plain-scalar(min)
	*/
	function isEmpty(ch) {
	    switch (ch) {
	        case undefined:
	        case ' ':
	        case '\n':
	        case '\r':
	        case '\t':
	            return true;
	        default:
	            return false;
	    }
	}
	const hexDigits = new Set('0123456789ABCDEFabcdef');
	const tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
	const flowIndicatorChars = new Set(',[]{}');
	const invalidAnchorChars = new Set(' ,[]{}\n\r\t');
	const isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
	/**
	 * Splits an input string into lexical tokens, i.e. smaller strings that are
	 * easily identifiable by `tokens.tokenType()`.
	 *
	 * Lexing starts always in a "stream" context. Incomplete input may be buffered
	 * until a complete token can be emitted.
	 *
	 * In addition to slices of the original input, the following control characters
	 * may also be emitted:
	 *
	 * - `\x02` (Start of Text): A document starts with the next token
	 * - `\x18` (Cancel): Unexpected end of flow-mode (indicates an error)
	 * - `\x1f` (Unit Separator): Next token is a scalar value
	 * - `\u{FEFF}` (Byte order mark): Emitted separately outside documents
	 */
	class Lexer {
	    constructor() {
	        /**
	         * Flag indicating whether the end of the current buffer marks the end of
	         * all input
	         */
	        this.atEnd = false;
	        /**
	         * Explicit indent set in block scalar header, as an offset from the current
	         * minimum indent, so e.g. set to 1 from a header `|2+`. Set to -1 if not
	         * explicitly set.
	         */
	        this.blockScalarIndent = -1;
	        /**
	         * Block scalars that include a + (keep) chomping indicator in their header
	         * include trailing empty lines, which are otherwise excluded from the
	         * scalar's contents.
	         */
	        this.blockScalarKeep = false;
	        /** Current input */
	        this.buffer = '';
	        /**
	         * Flag noting whether the map value indicator : can immediately follow this
	         * node within a flow context.
	         */
	        this.flowKey = false;
	        /** Count of surrounding flow collection levels. */
	        this.flowLevel = 0;
	        /**
	         * Minimum level of indentation required for next lines to be parsed as a
	         * part of the current scalar value.
	         */
	        this.indentNext = 0;
	        /** Indentation level of the current line. */
	        this.indentValue = 0;
	        /** Position of the next \n character. */
	        this.lineEndPos = null;
	        /** Stores the state of the lexer if reaching the end of incpomplete input */
	        this.next = null;
	        /** A pointer to `buffer`; the current position of the lexer. */
	        this.pos = 0;
	    }
	    /**
	     * Generate YAML tokens from the `source` string. If `incomplete`,
	     * a part of the last line may be left as a buffer for the next call.
	     *
	     * @returns A generator of lexical tokens
	     */
	    *lex(source, incomplete = false) {
	        if (source) {
	            if (typeof source !== 'string')
	                throw TypeError('source is not a string');
	            this.buffer = this.buffer ? this.buffer + source : source;
	            this.lineEndPos = null;
	        }
	        this.atEnd = !incomplete;
	        let next = this.next ?? 'stream';
	        while (next && (incomplete || this.hasChars(1)))
	            next = yield* this.parseNext(next);
	    }
	    atLineEnd() {
	        let i = this.pos;
	        let ch = this.buffer[i];
	        while (ch === ' ' || ch === '\t')
	            ch = this.buffer[++i];
	        if (!ch || ch === '#' || ch === '\n')
	            return true;
	        if (ch === '\r')
	            return this.buffer[i + 1] === '\n';
	        return false;
	    }
	    charAt(n) {
	        return this.buffer[this.pos + n];
	    }
	    continueScalar(offset) {
	        let ch = this.buffer[offset];
	        if (this.indentNext > 0) {
	            let indent = 0;
	            while (ch === ' ')
	                ch = this.buffer[++indent + offset];
	            if (ch === '\r') {
	                const next = this.buffer[indent + offset + 1];
	                if (next === '\n' || (!next && !this.atEnd))
	                    return offset + indent + 1;
	            }
	            return ch === '\n' || indent >= this.indentNext || (!ch && !this.atEnd)
	                ? offset + indent
	                : -1;
	        }
	        if (ch === '-' || ch === '.') {
	            const dt = this.buffer.substr(offset, 3);
	            if ((dt === '---' || dt === '...') && isEmpty(this.buffer[offset + 3]))
	                return -1;
	        }
	        return offset;
	    }
	    getLine() {
	        let end = this.lineEndPos;
	        if (typeof end !== 'number' || (end !== -1 && end < this.pos)) {
	            end = this.buffer.indexOf('\n', this.pos);
	            this.lineEndPos = end;
	        }
	        if (end === -1)
	            return this.atEnd ? this.buffer.substring(this.pos) : null;
	        if (this.buffer[end - 1] === '\r')
	            end -= 1;
	        return this.buffer.substring(this.pos, end);
	    }
	    hasChars(n) {
	        return this.pos + n <= this.buffer.length;
	    }
	    setNext(state) {
	        this.buffer = this.buffer.substring(this.pos);
	        this.pos = 0;
	        this.lineEndPos = null;
	        this.next = state;
	        return null;
	    }
	    peek(n) {
	        return this.buffer.substr(this.pos, n);
	    }
	    *parseNext(next) {
	        switch (next) {
	            case 'stream':
	                return yield* this.parseStream();
	            case 'line-start':
	                return yield* this.parseLineStart();
	            case 'block-start':
	                return yield* this.parseBlockStart();
	            case 'doc':
	                return yield* this.parseDocument();
	            case 'flow':
	                return yield* this.parseFlowCollection();
	            case 'quoted-scalar':
	                return yield* this.parseQuotedScalar();
	            case 'block-scalar':
	                return yield* this.parseBlockScalar();
	            case 'plain-scalar':
	                return yield* this.parsePlainScalar();
	        }
	    }
	    *parseStream() {
	        let line = this.getLine();
	        if (line === null)
	            return this.setNext('stream');
	        if (line[0] === cst.BOM) {
	            yield* this.pushCount(1);
	            line = line.substring(1);
	        }
	        if (line[0] === '%') {
	            let dirEnd = line.length;
	            let cs = line.indexOf('#');
	            while (cs !== -1) {
	                const ch = line[cs - 1];
	                if (ch === ' ' || ch === '\t') {
	                    dirEnd = cs - 1;
	                    break;
	                }
	                else {
	                    cs = line.indexOf('#', cs + 1);
	                }
	            }
	            while (true) {
	                const ch = line[dirEnd - 1];
	                if (ch === ' ' || ch === '\t')
	                    dirEnd -= 1;
	                else
	                    break;
	            }
	            const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
	            yield* this.pushCount(line.length - n); // possible comment
	            this.pushNewline();
	            return 'stream';
	        }
	        if (this.atLineEnd()) {
	            const sp = yield* this.pushSpaces(true);
	            yield* this.pushCount(line.length - sp);
	            yield* this.pushNewline();
	            return 'stream';
	        }
	        yield cst.DOCUMENT;
	        return yield* this.parseLineStart();
	    }
	    *parseLineStart() {
	        const ch = this.charAt(0);
	        if (!ch && !this.atEnd)
	            return this.setNext('line-start');
	        if (ch === '-' || ch === '.') {
	            if (!this.atEnd && !this.hasChars(4))
	                return this.setNext('line-start');
	            const s = this.peek(3);
	            if ((s === '---' || s === '...') && isEmpty(this.charAt(3))) {
	                yield* this.pushCount(3);
	                this.indentValue = 0;
	                this.indentNext = 0;
	                return s === '---' ? 'doc' : 'stream';
	            }
	        }
	        this.indentValue = yield* this.pushSpaces(false);
	        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
	            this.indentNext = this.indentValue;
	        return yield* this.parseBlockStart();
	    }
	    *parseBlockStart() {
	        const [ch0, ch1] = this.peek(2);
	        if (!ch1 && !this.atEnd)
	            return this.setNext('block-start');
	        if ((ch0 === '-' || ch0 === '?' || ch0 === ':') && isEmpty(ch1)) {
	            const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
	            this.indentNext = this.indentValue + 1;
	            this.indentValue += n;
	            return 'block-start';
	        }
	        return 'doc';
	    }
	    *parseDocument() {
	        yield* this.pushSpaces(true);
	        const line = this.getLine();
	        if (line === null)
	            return this.setNext('doc');
	        let n = yield* this.pushIndicators();
	        switch (line[n]) {
	            case '#':
	                yield* this.pushCount(line.length - n);
	            // fallthrough
	            case undefined:
	                yield* this.pushNewline();
	                return yield* this.parseLineStart();
	            case '{':
	            case '[':
	                yield* this.pushCount(1);
	                this.flowKey = false;
	                this.flowLevel = 1;
	                return 'flow';
	            case '}':
	            case ']':
	                // this is an error
	                yield* this.pushCount(1);
	                return 'doc';
	            case '*':
	                yield* this.pushUntil(isNotAnchorChar);
	                return 'doc';
	            case '"':
	            case "'":
	                return yield* this.parseQuotedScalar();
	            case '|':
	            case '>':
	                n += yield* this.parseBlockScalarHeader();
	                n += yield* this.pushSpaces(true);
	                yield* this.pushCount(line.length - n);
	                yield* this.pushNewline();
	                return yield* this.parseBlockScalar();
	            default:
	                return yield* this.parsePlainScalar();
	        }
	    }
	    *parseFlowCollection() {
	        let nl, sp;
	        let indent = -1;
	        do {
	            nl = yield* this.pushNewline();
	            if (nl > 0) {
	                sp = yield* this.pushSpaces(false);
	                this.indentValue = indent = sp;
	            }
	            else {
	                sp = 0;
	            }
	            sp += yield* this.pushSpaces(true);
	        } while (nl + sp > 0);
	        const line = this.getLine();
	        if (line === null)
	            return this.setNext('flow');
	        if ((indent !== -1 && indent < this.indentNext && line[0] !== '#') ||
	            (indent === 0 &&
	                (line.startsWith('---') || line.startsWith('...')) &&
	                isEmpty(line[3]))) {
	            // Allowing for the terminal ] or } at the same (rather than greater)
	            // indent level as the initial [ or { is technically invalid, but
	            // failing here would be surprising to users.
	            const atFlowEndMarker = indent === this.indentNext - 1 &&
	                this.flowLevel === 1 &&
	                (line[0] === ']' || line[0] === '}');
	            if (!atFlowEndMarker) {
	                // this is an error
	                this.flowLevel = 0;
	                yield cst.FLOW_END;
	                return yield* this.parseLineStart();
	            }
	        }
	        let n = 0;
	        while (line[n] === ',') {
	            n += yield* this.pushCount(1);
	            n += yield* this.pushSpaces(true);
	            this.flowKey = false;
	        }
	        n += yield* this.pushIndicators();
	        switch (line[n]) {
	            case undefined:
	                return 'flow';
	            case '#':
	                yield* this.pushCount(line.length - n);
	                return 'flow';
	            case '{':
	            case '[':
	                yield* this.pushCount(1);
	                this.flowKey = false;
	                this.flowLevel += 1;
	                return 'flow';
	            case '}':
	            case ']':
	                yield* this.pushCount(1);
	                this.flowKey = true;
	                this.flowLevel -= 1;
	                return this.flowLevel ? 'flow' : 'doc';
	            case '*':
	                yield* this.pushUntil(isNotAnchorChar);
	                return 'flow';
	            case '"':
	            case "'":
	                this.flowKey = true;
	                return yield* this.parseQuotedScalar();
	            case ':': {
	                const next = this.charAt(1);
	                if (this.flowKey || isEmpty(next) || next === ',') {
	                    this.flowKey = false;
	                    yield* this.pushCount(1);
	                    yield* this.pushSpaces(true);
	                    return 'flow';
	                }
	            }
	            // fallthrough
	            default:
	                this.flowKey = false;
	                return yield* this.parsePlainScalar();
	        }
	    }
	    *parseQuotedScalar() {
	        const quote = this.charAt(0);
	        let end = this.buffer.indexOf(quote, this.pos + 1);
	        if (quote === "'") {
	            while (end !== -1 && this.buffer[end + 1] === "'")
	                end = this.buffer.indexOf("'", end + 2);
	        }
	        else {
	            // double-quote
	            while (end !== -1) {
	                let n = 0;
	                while (this.buffer[end - 1 - n] === '\\')
	                    n += 1;
	                if (n % 2 === 0)
	                    break;
	                end = this.buffer.indexOf('"', end + 1);
	            }
	        }
	        // Only looking for newlines within the quotes
	        const qb = this.buffer.substring(0, end);
	        let nl = qb.indexOf('\n', this.pos);
	        if (nl !== -1) {
	            while (nl !== -1) {
	                const cs = this.continueScalar(nl + 1);
	                if (cs === -1)
	                    break;
	                nl = qb.indexOf('\n', cs);
	            }
	            if (nl !== -1) {
	                // this is an error caused by an unexpected unindent
	                end = nl - (qb[nl - 1] === '\r' ? 2 : 1);
	            }
	        }
	        if (end === -1) {
	            if (!this.atEnd)
	                return this.setNext('quoted-scalar');
	            end = this.buffer.length;
	        }
	        yield* this.pushToIndex(end + 1, false);
	        return this.flowLevel ? 'flow' : 'doc';
	    }
	    *parseBlockScalarHeader() {
	        this.blockScalarIndent = -1;
	        this.blockScalarKeep = false;
	        let i = this.pos;
	        while (true) {
	            const ch = this.buffer[++i];
	            if (ch === '+')
	                this.blockScalarKeep = true;
	            else if (ch > '0' && ch <= '9')
	                this.blockScalarIndent = Number(ch) - 1;
	            else if (ch !== '-')
	                break;
	        }
	        return yield* this.pushUntil(ch => isEmpty(ch) || ch === '#');
	    }
	    *parseBlockScalar() {
	        let nl = this.pos - 1; // may be -1 if this.pos === 0
	        let indent = 0;
	        let ch;
	        loop: for (let i = this.pos; (ch = this.buffer[i]); ++i) {
	            switch (ch) {
	                case ' ':
	                    indent += 1;
	                    break;
	                case '\n':
	                    nl = i;
	                    indent = 0;
	                    break;
	                case '\r': {
	                    const next = this.buffer[i + 1];
	                    if (!next && !this.atEnd)
	                        return this.setNext('block-scalar');
	                    if (next === '\n')
	                        break;
	                } // fallthrough
	                default:
	                    break loop;
	            }
	        }
	        if (!ch && !this.atEnd)
	            return this.setNext('block-scalar');
	        if (indent >= this.indentNext) {
	            if (this.blockScalarIndent === -1)
	                this.indentNext = indent;
	            else {
	                this.indentNext =
	                    this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
	            }
	            do {
	                const cs = this.continueScalar(nl + 1);
	                if (cs === -1)
	                    break;
	                nl = this.buffer.indexOf('\n', cs);
	            } while (nl !== -1);
	            if (nl === -1) {
	                if (!this.atEnd)
	                    return this.setNext('block-scalar');
	                nl = this.buffer.length;
	            }
	        }
	        // Trailing insufficiently indented tabs are invalid.
	        // To catch that during parsing, we include them in the block scalar value.
	        let i = nl + 1;
	        ch = this.buffer[i];
	        while (ch === ' ')
	            ch = this.buffer[++i];
	        if (ch === '\t') {
	            while (ch === '\t' || ch === ' ' || ch === '\r' || ch === '\n')
	                ch = this.buffer[++i];
	            nl = i - 1;
	        }
	        else if (!this.blockScalarKeep) {
	            do {
	                let i = nl - 1;
	                let ch = this.buffer[i];
	                if (ch === '\r')
	                    ch = this.buffer[--i];
	                const lastChar = i; // Drop the line if last char not more indented
	                while (ch === ' ')
	                    ch = this.buffer[--i];
	                if (ch === '\n' && i >= this.pos && i + 1 + indent > lastChar)
	                    nl = i;
	                else
	                    break;
	            } while (true);
	        }
	        yield cst.SCALAR;
	        yield* this.pushToIndex(nl + 1, true);
	        return yield* this.parseLineStart();
	    }
	    *parsePlainScalar() {
	        const inFlow = this.flowLevel > 0;
	        let end = this.pos - 1;
	        let i = this.pos - 1;
	        let ch;
	        while ((ch = this.buffer[++i])) {
	            if (ch === ':') {
	                const next = this.buffer[i + 1];
	                if (isEmpty(next) || (inFlow && flowIndicatorChars.has(next)))
	                    break;
	                end = i;
	            }
	            else if (isEmpty(ch)) {
	                let next = this.buffer[i + 1];
	                if (ch === '\r') {
	                    if (next === '\n') {
	                        i += 1;
	                        ch = '\n';
	                        next = this.buffer[i + 1];
	                    }
	                    else
	                        end = i;
	                }
	                if (next === '#' || (inFlow && flowIndicatorChars.has(next)))
	                    break;
	                if (ch === '\n') {
	                    const cs = this.continueScalar(i + 1);
	                    if (cs === -1)
	                        break;
	                    i = Math.max(i, cs - 2); // to advance, but still account for ' #'
	                }
	            }
	            else {
	                if (inFlow && flowIndicatorChars.has(ch))
	                    break;
	                end = i;
	            }
	        }
	        if (!ch && !this.atEnd)
	            return this.setNext('plain-scalar');
	        yield cst.SCALAR;
	        yield* this.pushToIndex(end + 1, true);
	        return inFlow ? 'flow' : 'doc';
	    }
	    *pushCount(n) {
	        if (n > 0) {
	            yield this.buffer.substr(this.pos, n);
	            this.pos += n;
	            return n;
	        }
	        return 0;
	    }
	    *pushToIndex(i, allowEmpty) {
	        const s = this.buffer.slice(this.pos, i);
	        if (s) {
	            yield s;
	            this.pos += s.length;
	            return s.length;
	        }
	        else if (allowEmpty)
	            yield '';
	        return 0;
	    }
	    *pushIndicators() {
	        let n = 0;
	        loop: while (true) {
	            switch (this.charAt(0)) {
	                case '!':
	                    n += yield* this.pushTag();
	                    n += yield* this.pushSpaces(true);
	                    continue loop;
	                case '&':
	                    n += yield* this.pushUntil(isNotAnchorChar);
	                    n += yield* this.pushSpaces(true);
	                    continue loop;
	                case '-': // this is an error
	                case '?': // this is an error outside flow collections
	                case ':': {
	                    const inFlow = this.flowLevel > 0;
	                    const ch1 = this.charAt(1);
	                    if (isEmpty(ch1) || (inFlow && flowIndicatorChars.has(ch1))) {
	                        if (!inFlow)
	                            this.indentNext = this.indentValue + 1;
	                        else if (this.flowKey)
	                            this.flowKey = false;
	                        n += yield* this.pushCount(1);
	                        n += yield* this.pushSpaces(true);
	                        continue loop;
	                    }
	                }
	            }
	            break loop;
	        }
	        return n;
	    }
	    *pushTag() {
	        if (this.charAt(1) === '<') {
	            let i = this.pos + 2;
	            let ch = this.buffer[i];
	            while (!isEmpty(ch) && ch !== '>')
	                ch = this.buffer[++i];
	            return yield* this.pushToIndex(ch === '>' ? i + 1 : i, false);
	        }
	        else {
	            let i = this.pos + 1;
	            let ch = this.buffer[i];
	            while (ch) {
	                if (tagChars.has(ch))
	                    ch = this.buffer[++i];
	                else if (ch === '%' &&
	                    hexDigits.has(this.buffer[i + 1]) &&
	                    hexDigits.has(this.buffer[i + 2])) {
	                    ch = this.buffer[(i += 3)];
	                }
	                else
	                    break;
	            }
	            return yield* this.pushToIndex(i, false);
	        }
	    }
	    *pushNewline() {
	        const ch = this.buffer[this.pos];
	        if (ch === '\n')
	            return yield* this.pushCount(1);
	        else if (ch === '\r' && this.charAt(1) === '\n')
	            return yield* this.pushCount(2);
	        else
	            return 0;
	    }
	    *pushSpaces(allowTabs) {
	        let i = this.pos - 1;
	        let ch;
	        do {
	            ch = this.buffer[++i];
	        } while (ch === ' ' || (allowTabs && ch === '\t'));
	        const n = i - this.pos;
	        if (n > 0) {
	            yield this.buffer.substr(this.pos, n);
	            this.pos = i;
	        }
	        return n;
	    }
	    *pushUntil(test) {
	        let i = this.pos;
	        let ch = this.buffer[i];
	        while (!test(ch))
	            ch = this.buffer[++i];
	        return yield* this.pushToIndex(i, false);
	    }
	}

	lexer.Lexer = Lexer;
	return lexer;
}

var lineCounter = {};

var hasRequiredLineCounter;

function requireLineCounter () {
	if (hasRequiredLineCounter) return lineCounter;
	hasRequiredLineCounter = 1;

	/**
	 * Tracks newlines during parsing in order to provide an efficient API for
	 * determining the one-indexed `{ line, col }` position for any offset
	 * within the input.
	 */
	class LineCounter {
	    constructor() {
	        this.lineStarts = [];
	        /**
	         * Should be called in ascending order. Otherwise, call
	         * `lineCounter.lineStarts.sort()` before calling `linePos()`.
	         */
	        this.addNewLine = (offset) => this.lineStarts.push(offset);
	        /**
	         * Performs a binary search and returns the 1-indexed { line, col }
	         * position of `offset`. If `line === 0`, `addNewLine` has never been
	         * called or `offset` is before the first known newline.
	         */
	        this.linePos = (offset) => {
	            let low = 0;
	            let high = this.lineStarts.length;
	            while (low < high) {
	                const mid = (low + high) >> 1; // Math.floor((low + high) / 2)
	                if (this.lineStarts[mid] < offset)
	                    low = mid + 1;
	                else
	                    high = mid;
	            }
	            if (this.lineStarts[low] === offset)
	                return { line: low + 1, col: 1 };
	            if (low === 0)
	                return { line: 0, col: offset };
	            const start = this.lineStarts[low - 1];
	            return { line: low, col: offset - start + 1 };
	        };
	    }
	}

	lineCounter.LineCounter = LineCounter;
	return lineCounter;
}

var parser = {};

var hasRequiredParser;

function requireParser () {
	if (hasRequiredParser) return parser;
	hasRequiredParser = 1;

	var node_process = require$$0;
	var cst = requireCst();
	var lexer = requireLexer();

	function includesToken(list, type) {
	    for (let i = 0; i < list.length; ++i)
	        if (list[i].type === type)
	            return true;
	    return false;
	}
	function findNonEmptyIndex(list) {
	    for (let i = 0; i < list.length; ++i) {
	        switch (list[i].type) {
	            case 'space':
	            case 'comment':
	            case 'newline':
	                break;
	            default:
	                return i;
	        }
	    }
	    return -1;
	}
	function isFlowToken(token) {
	    switch (token?.type) {
	        case 'alias':
	        case 'scalar':
	        case 'single-quoted-scalar':
	        case 'double-quoted-scalar':
	        case 'flow-collection':
	            return true;
	        default:
	            return false;
	    }
	}
	function getPrevProps(parent) {
	    switch (parent.type) {
	        case 'document':
	            return parent.start;
	        case 'block-map': {
	            const it = parent.items[parent.items.length - 1];
	            return it.sep ?? it.start;
	        }
	        case 'block-seq':
	            return parent.items[parent.items.length - 1].start;
	        /* istanbul ignore next should not happen */
	        default:
	            return [];
	    }
	}
	/** Note: May modify input array */
	function getFirstKeyStartProps(prev) {
	    if (prev.length === 0)
	        return [];
	    let i = prev.length;
	    loop: while (--i >= 0) {
	        switch (prev[i].type) {
	            case 'doc-start':
	            case 'explicit-key-ind':
	            case 'map-value-ind':
	            case 'seq-item-ind':
	            case 'newline':
	                break loop;
	        }
	    }
	    while (prev[++i]?.type === 'space') {
	        /* loop */
	    }
	    return prev.splice(i, prev.length);
	}
	function arrayPushArray(target, source) {
	    // May exhaust call stack with large `source` array
	    if (source.length < 1e5)
	        Array.prototype.push.apply(target, source);
	    else
	        for (let i = 0; i < source.length; ++i)
	            target.push(source[i]);
	}
	function fixFlowSeqItems(fc) {
	    if (fc.start.type === 'flow-seq-start') {
	        for (const it of fc.items) {
	            if (it.sep &&
	                !it.value &&
	                !includesToken(it.start, 'explicit-key-ind') &&
	                !includesToken(it.sep, 'map-value-ind')) {
	                if (it.key)
	                    it.value = it.key;
	                delete it.key;
	                if (isFlowToken(it.value)) {
	                    if (it.value.end)
	                        arrayPushArray(it.value.end, it.sep);
	                    else
	                        it.value.end = it.sep;
	                }
	                else
	                    arrayPushArray(it.start, it.sep);
	                delete it.sep;
	            }
	        }
	    }
	}
	/**
	 * A YAML concrete syntax tree (CST) parser
	 *
	 * ```ts
	 * const src: string = ...
	 * for (const token of new Parser().parse(src)) {
	 *   // token: Token
	 * }
	 * ```
	 *
	 * To use the parser with a user-provided lexer:
	 *
	 * ```ts
	 * function* parse(source: string, lexer: Lexer) {
	 *   const parser = new Parser()
	 *   for (const lexeme of lexer.lex(source))
	 *     yield* parser.next(lexeme)
	 *   yield* parser.end()
	 * }
	 *
	 * const src: string = ...
	 * const lexer = new Lexer()
	 * for (const token of parse(src, lexer)) {
	 *   // token: Token
	 * }
	 * ```
	 */
	class Parser {
	    /**
	     * @param onNewLine - If defined, called separately with the start position of
	     *   each new line (in `parse()`, including the start of input).
	     */
	    constructor(onNewLine) {
	        /** If true, space and sequence indicators count as indentation */
	        this.atNewLine = true;
	        /** If true, next token is a scalar value */
	        this.atScalar = false;
	        /** Current indentation level */
	        this.indent = 0;
	        /** Current offset since the start of parsing */
	        this.offset = 0;
	        /** On the same line with a block map key */
	        this.onKeyLine = false;
	        /** Top indicates the node that's currently being built */
	        this.stack = [];
	        /** The source of the current token, set in parse() */
	        this.source = '';
	        /** The type of the current token, set in parse() */
	        this.type = '';
	        // Must be defined after `next()`
	        this.lexer = new lexer.Lexer();
	        this.onNewLine = onNewLine;
	    }
	    /**
	     * Parse `source` as a YAML stream.
	     * If `incomplete`, a part of the last line may be left as a buffer for the next call.
	     *
	     * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
	     *
	     * @returns A generator of tokens representing each directive, document, and other structure.
	     */
	    *parse(source, incomplete = false) {
	        if (this.onNewLine && this.offset === 0)
	            this.onNewLine(0);
	        for (const lexeme of this.lexer.lex(source, incomplete))
	            yield* this.next(lexeme);
	        if (!incomplete)
	            yield* this.end();
	    }
	    /**
	     * Advance the parser by the `source` of one lexical token.
	     */
	    *next(source) {
	        this.source = source;
	        if (node_process.env.LOG_TOKENS)
	            console.log('|', cst.prettyToken(source));
	        if (this.atScalar) {
	            this.atScalar = false;
	            yield* this.step();
	            this.offset += source.length;
	            return;
	        }
	        const type = cst.tokenType(source);
	        if (!type) {
	            const message = `Not a YAML token: ${source}`;
	            yield* this.pop({ type: 'error', offset: this.offset, message, source });
	            this.offset += source.length;
	        }
	        else if (type === 'scalar') {
	            this.atNewLine = false;
	            this.atScalar = true;
	            this.type = 'scalar';
	        }
	        else {
	            this.type = type;
	            yield* this.step();
	            switch (type) {
	                case 'newline':
	                    this.atNewLine = true;
	                    this.indent = 0;
	                    if (this.onNewLine)
	                        this.onNewLine(this.offset + source.length);
	                    break;
	                case 'space':
	                    if (this.atNewLine && source[0] === ' ')
	                        this.indent += source.length;
	                    break;
	                case 'explicit-key-ind':
	                case 'map-value-ind':
	                case 'seq-item-ind':
	                    if (this.atNewLine)
	                        this.indent += source.length;
	                    break;
	                case 'doc-mode':
	                case 'flow-error-end':
	                    return;
	                default:
	                    this.atNewLine = false;
	            }
	            this.offset += source.length;
	        }
	    }
	    /** Call at end of input to push out any remaining constructions */
	    *end() {
	        while (this.stack.length > 0)
	            yield* this.pop();
	    }
	    get sourceToken() {
	        const st = {
	            type: this.type,
	            offset: this.offset,
	            indent: this.indent,
	            source: this.source
	        };
	        return st;
	    }
	    *step() {
	        const top = this.peek(1);
	        if (this.type === 'doc-end' && top?.type !== 'doc-end') {
	            while (this.stack.length > 0)
	                yield* this.pop();
	            this.stack.push({
	                type: 'doc-end',
	                offset: this.offset,
	                source: this.source
	            });
	            return;
	        }
	        if (!top)
	            return yield* this.stream();
	        switch (top.type) {
	            case 'document':
	                return yield* this.document(top);
	            case 'alias':
	            case 'scalar':
	            case 'single-quoted-scalar':
	            case 'double-quoted-scalar':
	                return yield* this.scalar(top);
	            case 'block-scalar':
	                return yield* this.blockScalar(top);
	            case 'block-map':
	                return yield* this.blockMap(top);
	            case 'block-seq':
	                return yield* this.blockSequence(top);
	            case 'flow-collection':
	                return yield* this.flowCollection(top);
	            case 'doc-end':
	                return yield* this.documentEnd(top);
	        }
	        /* istanbul ignore next should not happen */
	        yield* this.pop();
	    }
	    peek(n) {
	        return this.stack[this.stack.length - n];
	    }
	    *pop(error) {
	        const token = error ?? this.stack.pop();
	        /* istanbul ignore if should not happen */
	        if (!token) {
	            const message = 'Tried to pop an empty stack';
	            yield { type: 'error', offset: this.offset, source: '', message };
	        }
	        else if (this.stack.length === 0) {
	            yield token;
	        }
	        else {
	            const top = this.peek(1);
	            if (token.type === 'block-scalar') {
	                // Block scalars use their parent rather than header indent
	                token.indent = 'indent' in top ? top.indent : 0;
	            }
	            else if (token.type === 'flow-collection' && top.type === 'document') {
	                // Ignore all indent for top-level flow collections
	                token.indent = 0;
	            }
	            if (token.type === 'flow-collection')
	                fixFlowSeqItems(token);
	            switch (top.type) {
	                case 'document':
	                    top.value = token;
	                    break;
	                case 'block-scalar':
	                    top.props.push(token); // error
	                    break;
	                case 'block-map': {
	                    const it = top.items[top.items.length - 1];
	                    if (it.value) {
	                        top.items.push({ start: [], key: token, sep: [] });
	                        this.onKeyLine = true;
	                        return;
	                    }
	                    else if (it.sep) {
	                        it.value = token;
	                    }
	                    else {
	                        Object.assign(it, { key: token, sep: [] });
	                        this.onKeyLine = !it.explicitKey;
	                        return;
	                    }
	                    break;
	                }
	                case 'block-seq': {
	                    const it = top.items[top.items.length - 1];
	                    if (it.value)
	                        top.items.push({ start: [], value: token });
	                    else
	                        it.value = token;
	                    break;
	                }
	                case 'flow-collection': {
	                    const it = top.items[top.items.length - 1];
	                    if (!it || it.value)
	                        top.items.push({ start: [], key: token, sep: [] });
	                    else if (it.sep)
	                        it.value = token;
	                    else
	                        Object.assign(it, { key: token, sep: [] });
	                    return;
	                }
	                /* istanbul ignore next should not happen */
	                default:
	                    yield* this.pop();
	                    yield* this.pop(token);
	            }
	            if ((top.type === 'document' ||
	                top.type === 'block-map' ||
	                top.type === 'block-seq') &&
	                (token.type === 'block-map' || token.type === 'block-seq')) {
	                const last = token.items[token.items.length - 1];
	                if (last &&
	                    !last.sep &&
	                    !last.value &&
	                    last.start.length > 0 &&
	                    findNonEmptyIndex(last.start) === -1 &&
	                    (token.indent === 0 ||
	                        last.start.every(st => st.type !== 'comment' || st.indent < token.indent))) {
	                    if (top.type === 'document')
	                        top.end = last.start;
	                    else
	                        top.items.push({ start: last.start });
	                    token.items.splice(-1, 1);
	                }
	            }
	        }
	    }
	    *stream() {
	        switch (this.type) {
	            case 'directive-line':
	                yield { type: 'directive', offset: this.offset, source: this.source };
	                return;
	            case 'byte-order-mark':
	            case 'space':
	            case 'comment':
	            case 'newline':
	                yield this.sourceToken;
	                return;
	            case 'doc-mode':
	            case 'doc-start': {
	                const doc = {
	                    type: 'document',
	                    offset: this.offset,
	                    start: []
	                };
	                if (this.type === 'doc-start')
	                    doc.start.push(this.sourceToken);
	                this.stack.push(doc);
	                return;
	            }
	        }
	        yield {
	            type: 'error',
	            offset: this.offset,
	            message: `Unexpected ${this.type} token in YAML stream`,
	            source: this.source
	        };
	    }
	    *document(doc) {
	        if (doc.value)
	            return yield* this.lineEnd(doc);
	        switch (this.type) {
	            case 'doc-start': {
	                if (findNonEmptyIndex(doc.start) !== -1) {
	                    yield* this.pop();
	                    yield* this.step();
	                }
	                else
	                    doc.start.push(this.sourceToken);
	                return;
	            }
	            case 'anchor':
	            case 'tag':
	            case 'space':
	            case 'comment':
	            case 'newline':
	                doc.start.push(this.sourceToken);
	                return;
	        }
	        const bv = this.startBlockValue(doc);
	        if (bv)
	            this.stack.push(bv);
	        else {
	            yield {
	                type: 'error',
	                offset: this.offset,
	                message: `Unexpected ${this.type} token in YAML document`,
	                source: this.source
	            };
	        }
	    }
	    *scalar(scalar) {
	        if (this.type === 'map-value-ind') {
	            const prev = getPrevProps(this.peek(2));
	            const start = getFirstKeyStartProps(prev);
	            let sep;
	            if (scalar.end) {
	                sep = scalar.end;
	                sep.push(this.sourceToken);
	                delete scalar.end;
	            }
	            else
	                sep = [this.sourceToken];
	            const map = {
	                type: 'block-map',
	                offset: scalar.offset,
	                indent: scalar.indent,
	                items: [{ start, key: scalar, sep }]
	            };
	            this.onKeyLine = true;
	            this.stack[this.stack.length - 1] = map;
	        }
	        else
	            yield* this.lineEnd(scalar);
	    }
	    *blockScalar(scalar) {
	        switch (this.type) {
	            case 'space':
	            case 'comment':
	            case 'newline':
	                scalar.props.push(this.sourceToken);
	                return;
	            case 'scalar':
	                scalar.source = this.source;
	                // block-scalar source includes trailing newline
	                this.atNewLine = true;
	                this.indent = 0;
	                if (this.onNewLine) {
	                    let nl = this.source.indexOf('\n') + 1;
	                    while (nl !== 0) {
	                        this.onNewLine(this.offset + nl);
	                        nl = this.source.indexOf('\n', nl) + 1;
	                    }
	                }
	                yield* this.pop();
	                break;
	            /* istanbul ignore next should not happen */
	            default:
	                yield* this.pop();
	                yield* this.step();
	        }
	    }
	    *blockMap(map) {
	        const it = map.items[map.items.length - 1];
	        // it.sep is true-ish if pair already has key or : separator
	        switch (this.type) {
	            case 'newline':
	                this.onKeyLine = false;
	                if (it.value) {
	                    const end = 'end' in it.value ? it.value.end : undefined;
	                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
	                    if (last?.type === 'comment')
	                        end?.push(this.sourceToken);
	                    else
	                        map.items.push({ start: [this.sourceToken] });
	                }
	                else if (it.sep) {
	                    it.sep.push(this.sourceToken);
	                }
	                else {
	                    it.start.push(this.sourceToken);
	                }
	                return;
	            case 'space':
	            case 'comment':
	                if (it.value) {
	                    map.items.push({ start: [this.sourceToken] });
	                }
	                else if (it.sep) {
	                    it.sep.push(this.sourceToken);
	                }
	                else {
	                    if (this.atIndentedComment(it.start, map.indent)) {
	                        const prev = map.items[map.items.length - 2];
	                        const end = prev?.value?.end;
	                        if (Array.isArray(end)) {
	                            arrayPushArray(end, it.start);
	                            end.push(this.sourceToken);
	                            map.items.pop();
	                            return;
	                        }
	                    }
	                    it.start.push(this.sourceToken);
	                }
	                return;
	        }
	        if (this.indent >= map.indent) {
	            const atMapIndent = !this.onKeyLine && this.indent === map.indent;
	            const atNextItem = atMapIndent &&
	                (it.sep || it.explicitKey) &&
	                this.type !== 'seq-item-ind';
	            // For empty nodes, assign newline-separated not indented empty tokens to following node
	            let start = [];
	            if (atNextItem && it.sep && !it.value) {
	                const nl = [];
	                for (let i = 0; i < it.sep.length; ++i) {
	                    const st = it.sep[i];
	                    switch (st.type) {
	                        case 'newline':
	                            nl.push(i);
	                            break;
	                        case 'space':
	                            break;
	                        case 'comment':
	                            if (st.indent > map.indent)
	                                nl.length = 0;
	                            break;
	                        default:
	                            nl.length = 0;
	                    }
	                }
	                if (nl.length >= 2)
	                    start = it.sep.splice(nl[1]);
	            }
	            switch (this.type) {
	                case 'anchor':
	                case 'tag':
	                    if (atNextItem || it.value) {
	                        start.push(this.sourceToken);
	                        map.items.push({ start });
	                        this.onKeyLine = true;
	                    }
	                    else if (it.sep) {
	                        it.sep.push(this.sourceToken);
	                    }
	                    else {
	                        it.start.push(this.sourceToken);
	                    }
	                    return;
	                case 'explicit-key-ind':
	                    if (!it.sep && !it.explicitKey) {
	                        it.start.push(this.sourceToken);
	                        it.explicitKey = true;
	                    }
	                    else if (atNextItem || it.value) {
	                        start.push(this.sourceToken);
	                        map.items.push({ start, explicitKey: true });
	                    }
	                    else {
	                        this.stack.push({
	                            type: 'block-map',
	                            offset: this.offset,
	                            indent: this.indent,
	                            items: [{ start: [this.sourceToken], explicitKey: true }]
	                        });
	                    }
	                    this.onKeyLine = true;
	                    return;
	                case 'map-value-ind':
	                    if (it.explicitKey) {
	                        if (!it.sep) {
	                            if (includesToken(it.start, 'newline')) {
	                                Object.assign(it, { key: null, sep: [this.sourceToken] });
	                            }
	                            else {
	                                const start = getFirstKeyStartProps(it.start);
	                                this.stack.push({
	                                    type: 'block-map',
	                                    offset: this.offset,
	                                    indent: this.indent,
	                                    items: [{ start, key: null, sep: [this.sourceToken] }]
	                                });
	                            }
	                        }
	                        else if (it.value) {
	                            map.items.push({ start: [], key: null, sep: [this.sourceToken] });
	                        }
	                        else if (includesToken(it.sep, 'map-value-ind')) {
	                            this.stack.push({
	                                type: 'block-map',
	                                offset: this.offset,
	                                indent: this.indent,
	                                items: [{ start, key: null, sep: [this.sourceToken] }]
	                            });
	                        }
	                        else if (isFlowToken(it.key) &&
	                            !includesToken(it.sep, 'newline')) {
	                            const start = getFirstKeyStartProps(it.start);
	                            const key = it.key;
	                            const sep = it.sep;
	                            sep.push(this.sourceToken);
	                            // @ts-expect-error type guard is wrong here
	                            delete it.key;
	                            // @ts-expect-error type guard is wrong here
	                            delete it.sep;
	                            this.stack.push({
	                                type: 'block-map',
	                                offset: this.offset,
	                                indent: this.indent,
	                                items: [{ start, key, sep }]
	                            });
	                        }
	                        else if (start.length > 0) {
	                            // Not actually at next item
	                            it.sep = it.sep.concat(start, this.sourceToken);
	                        }
	                        else {
	                            it.sep.push(this.sourceToken);
	                        }
	                    }
	                    else {
	                        if (!it.sep) {
	                            Object.assign(it, { key: null, sep: [this.sourceToken] });
	                        }
	                        else if (it.value || atNextItem) {
	                            map.items.push({ start, key: null, sep: [this.sourceToken] });
	                        }
	                        else if (includesToken(it.sep, 'map-value-ind')) {
	                            this.stack.push({
	                                type: 'block-map',
	                                offset: this.offset,
	                                indent: this.indent,
	                                items: [{ start: [], key: null, sep: [this.sourceToken] }]
	                            });
	                        }
	                        else {
	                            it.sep.push(this.sourceToken);
	                        }
	                    }
	                    this.onKeyLine = true;
	                    return;
	                case 'alias':
	                case 'scalar':
	                case 'single-quoted-scalar':
	                case 'double-quoted-scalar': {
	                    const fs = this.flowScalar(this.type);
	                    if (atNextItem || it.value) {
	                        map.items.push({ start, key: fs, sep: [] });
	                        this.onKeyLine = true;
	                    }
	                    else if (it.sep) {
	                        this.stack.push(fs);
	                    }
	                    else {
	                        Object.assign(it, { key: fs, sep: [] });
	                        this.onKeyLine = true;
	                    }
	                    return;
	                }
	                default: {
	                    const bv = this.startBlockValue(map);
	                    if (bv) {
	                        if (bv.type === 'block-seq') {
	                            if (!it.explicitKey &&
	                                it.sep &&
	                                !includesToken(it.sep, 'newline')) {
	                                yield* this.pop({
	                                    type: 'error',
	                                    offset: this.offset,
	                                    message: 'Unexpected block-seq-ind on same line with key',
	                                    source: this.source
	                                });
	                                return;
	                            }
	                        }
	                        else if (atMapIndent) {
	                            map.items.push({ start });
	                        }
	                        this.stack.push(bv);
	                        return;
	                    }
	                }
	            }
	        }
	        yield* this.pop();
	        yield* this.step();
	    }
	    *blockSequence(seq) {
	        const it = seq.items[seq.items.length - 1];
	        switch (this.type) {
	            case 'newline':
	                if (it.value) {
	                    const end = 'end' in it.value ? it.value.end : undefined;
	                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
	                    if (last?.type === 'comment')
	                        end?.push(this.sourceToken);
	                    else
	                        seq.items.push({ start: [this.sourceToken] });
	                }
	                else
	                    it.start.push(this.sourceToken);
	                return;
	            case 'space':
	            case 'comment':
	                if (it.value)
	                    seq.items.push({ start: [this.sourceToken] });
	                else {
	                    if (this.atIndentedComment(it.start, seq.indent)) {
	                        const prev = seq.items[seq.items.length - 2];
	                        const end = prev?.value?.end;
	                        if (Array.isArray(end)) {
	                            arrayPushArray(end, it.start);
	                            end.push(this.sourceToken);
	                            seq.items.pop();
	                            return;
	                        }
	                    }
	                    it.start.push(this.sourceToken);
	                }
	                return;
	            case 'anchor':
	            case 'tag':
	                if (it.value || this.indent <= seq.indent)
	                    break;
	                it.start.push(this.sourceToken);
	                return;
	            case 'seq-item-ind':
	                if (this.indent !== seq.indent)
	                    break;
	                if (it.value || includesToken(it.start, 'seq-item-ind'))
	                    seq.items.push({ start: [this.sourceToken] });
	                else
	                    it.start.push(this.sourceToken);
	                return;
	        }
	        if (this.indent > seq.indent) {
	            const bv = this.startBlockValue(seq);
	            if (bv) {
	                this.stack.push(bv);
	                return;
	            }
	        }
	        yield* this.pop();
	        yield* this.step();
	    }
	    *flowCollection(fc) {
	        const it = fc.items[fc.items.length - 1];
	        if (this.type === 'flow-error-end') {
	            let top;
	            do {
	                yield* this.pop();
	                top = this.peek(1);
	            } while (top?.type === 'flow-collection');
	        }
	        else if (fc.end.length === 0) {
	            switch (this.type) {
	                case 'comma':
	                case 'explicit-key-ind':
	                    if (!it || it.sep)
	                        fc.items.push({ start: [this.sourceToken] });
	                    else
	                        it.start.push(this.sourceToken);
	                    return;
	                case 'map-value-ind':
	                    if (!it || it.value)
	                        fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
	                    else if (it.sep)
	                        it.sep.push(this.sourceToken);
	                    else
	                        Object.assign(it, { key: null, sep: [this.sourceToken] });
	                    return;
	                case 'space':
	                case 'comment':
	                case 'newline':
	                case 'anchor':
	                case 'tag':
	                    if (!it || it.value)
	                        fc.items.push({ start: [this.sourceToken] });
	                    else if (it.sep)
	                        it.sep.push(this.sourceToken);
	                    else
	                        it.start.push(this.sourceToken);
	                    return;
	                case 'alias':
	                case 'scalar':
	                case 'single-quoted-scalar':
	                case 'double-quoted-scalar': {
	                    const fs = this.flowScalar(this.type);
	                    if (!it || it.value)
	                        fc.items.push({ start: [], key: fs, sep: [] });
	                    else if (it.sep)
	                        this.stack.push(fs);
	                    else
	                        Object.assign(it, { key: fs, sep: [] });
	                    return;
	                }
	                case 'flow-map-end':
	                case 'flow-seq-end':
	                    fc.end.push(this.sourceToken);
	                    return;
	            }
	            const bv = this.startBlockValue(fc);
	            /* istanbul ignore else should not happen */
	            if (bv)
	                this.stack.push(bv);
	            else {
	                yield* this.pop();
	                yield* this.step();
	            }
	        }
	        else {
	            const parent = this.peek(2);
	            if (parent.type === 'block-map' &&
	                ((this.type === 'map-value-ind' && parent.indent === fc.indent) ||
	                    (this.type === 'newline' &&
	                        !parent.items[parent.items.length - 1].sep))) {
	                yield* this.pop();
	                yield* this.step();
	            }
	            else if (this.type === 'map-value-ind' &&
	                parent.type !== 'flow-collection') {
	                const prev = getPrevProps(parent);
	                const start = getFirstKeyStartProps(prev);
	                fixFlowSeqItems(fc);
	                const sep = fc.end.splice(1, fc.end.length);
	                sep.push(this.sourceToken);
	                const map = {
	                    type: 'block-map',
	                    offset: fc.offset,
	                    indent: fc.indent,
	                    items: [{ start, key: fc, sep }]
	                };
	                this.onKeyLine = true;
	                this.stack[this.stack.length - 1] = map;
	            }
	            else {
	                yield* this.lineEnd(fc);
	            }
	        }
	    }
	    flowScalar(type) {
	        if (this.onNewLine) {
	            let nl = this.source.indexOf('\n') + 1;
	            while (nl !== 0) {
	                this.onNewLine(this.offset + nl);
	                nl = this.source.indexOf('\n', nl) + 1;
	            }
	        }
	        return {
	            type,
	            offset: this.offset,
	            indent: this.indent,
	            source: this.source
	        };
	    }
	    startBlockValue(parent) {
	        switch (this.type) {
	            case 'alias':
	            case 'scalar':
	            case 'single-quoted-scalar':
	            case 'double-quoted-scalar':
	                return this.flowScalar(this.type);
	            case 'block-scalar-header':
	                return {
	                    type: 'block-scalar',
	                    offset: this.offset,
	                    indent: this.indent,
	                    props: [this.sourceToken],
	                    source: ''
	                };
	            case 'flow-map-start':
	            case 'flow-seq-start':
	                return {
	                    type: 'flow-collection',
	                    offset: this.offset,
	                    indent: this.indent,
	                    start: this.sourceToken,
	                    items: [],
	                    end: []
	                };
	            case 'seq-item-ind':
	                return {
	                    type: 'block-seq',
	                    offset: this.offset,
	                    indent: this.indent,
	                    items: [{ start: [this.sourceToken] }]
	                };
	            case 'explicit-key-ind': {
	                this.onKeyLine = true;
	                const prev = getPrevProps(parent);
	                const start = getFirstKeyStartProps(prev);
	                start.push(this.sourceToken);
	                return {
	                    type: 'block-map',
	                    offset: this.offset,
	                    indent: this.indent,
	                    items: [{ start, explicitKey: true }]
	                };
	            }
	            case 'map-value-ind': {
	                this.onKeyLine = true;
	                const prev = getPrevProps(parent);
	                const start = getFirstKeyStartProps(prev);
	                return {
	                    type: 'block-map',
	                    offset: this.offset,
	                    indent: this.indent,
	                    items: [{ start, key: null, sep: [this.sourceToken] }]
	                };
	            }
	        }
	        return null;
	    }
	    atIndentedComment(start, indent) {
	        if (this.type !== 'comment')
	            return false;
	        if (this.indent <= indent)
	            return false;
	        return start.every(st => st.type === 'newline' || st.type === 'space');
	    }
	    *documentEnd(docEnd) {
	        if (this.type !== 'doc-mode') {
	            if (docEnd.end)
	                docEnd.end.push(this.sourceToken);
	            else
	                docEnd.end = [this.sourceToken];
	            if (this.type === 'newline')
	                yield* this.pop();
	        }
	    }
	    *lineEnd(token) {
	        switch (this.type) {
	            case 'comma':
	            case 'doc-start':
	            case 'doc-end':
	            case 'flow-seq-end':
	            case 'flow-map-end':
	            case 'map-value-ind':
	                yield* this.pop();
	                yield* this.step();
	                break;
	            case 'newline':
	                this.onKeyLine = false;
	            // fallthrough
	            case 'space':
	            case 'comment':
	            default:
	                // all other values are errors
	                if (token.end)
	                    token.end.push(this.sourceToken);
	                else
	                    token.end = [this.sourceToken];
	                if (this.type === 'newline')
	                    yield* this.pop();
	        }
	    }
	}

	parser.Parser = Parser;
	return parser;
}

var publicApi = {};

var hasRequiredPublicApi;

function requirePublicApi () {
	if (hasRequiredPublicApi) return publicApi;
	hasRequiredPublicApi = 1;

	var composer = requireComposer();
	var Document = requireDocument();
	var errors = requireErrors();
	var log = requireLog();
	var identity = requireIdentity();
	var lineCounter = requireLineCounter();
	var parser = requireParser();

	function parseOptions(options) {
	    const prettyErrors = options.prettyErrors !== false;
	    const lineCounter$1 = options.lineCounter || (prettyErrors && new lineCounter.LineCounter()) || null;
	    return { lineCounter: lineCounter$1, prettyErrors };
	}
	/**
	 * Parse the input as a stream of YAML documents.
	 *
	 * Documents should be separated from each other by `...` or `---` marker lines.
	 *
	 * @returns If an empty `docs` array is returned, it will be of type
	 *   EmptyStream and contain additional stream information. In
	 *   TypeScript, you should use `'empty' in docs` as a type guard for it.
	 */
	function parseAllDocuments(source, options = {}) {
	    const { lineCounter, prettyErrors } = parseOptions(options);
	    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
	    const composer$1 = new composer.Composer(options);
	    const docs = Array.from(composer$1.compose(parser$1.parse(source)));
	    if (prettyErrors && lineCounter)
	        for (const doc of docs) {
	            doc.errors.forEach(errors.prettifyError(source, lineCounter));
	            doc.warnings.forEach(errors.prettifyError(source, lineCounter));
	        }
	    if (docs.length > 0)
	        return docs;
	    return Object.assign([], { empty: true }, composer$1.streamInfo());
	}
	/** Parse an input string into a single YAML.Document */
	function parseDocument(source, options = {}) {
	    const { lineCounter, prettyErrors } = parseOptions(options);
	    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
	    const composer$1 = new composer.Composer(options);
	    // `doc` is always set by compose.end(true) at the very latest
	    let doc = null;
	    for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
	        if (!doc)
	            doc = _doc;
	        else if (doc.options.logLevel !== 'silent') {
	            doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
	            break;
	        }
	    }
	    if (prettyErrors && lineCounter) {
	        doc.errors.forEach(errors.prettifyError(source, lineCounter));
	        doc.warnings.forEach(errors.prettifyError(source, lineCounter));
	    }
	    return doc;
	}
	function parse(src, reviver, options) {
	    let _reviver = undefined;
	    if (typeof reviver === 'function') {
	        _reviver = reviver;
	    }
	    else if (options === undefined && reviver && typeof reviver === 'object') {
	        options = reviver;
	    }
	    const doc = parseDocument(src, options);
	    if (!doc)
	        return null;
	    doc.warnings.forEach(warning => log.warn(doc.options.logLevel, warning));
	    if (doc.errors.length > 0) {
	        if (doc.options.logLevel !== 'silent')
	            throw doc.errors[0];
	        else
	            doc.errors = [];
	    }
	    return doc.toJS(Object.assign({ reviver: _reviver }, options));
	}
	function stringify(value, replacer, options) {
	    let _replacer = null;
	    if (typeof replacer === 'function' || Array.isArray(replacer)) {
	        _replacer = replacer;
	    }
	    else if (options === undefined && replacer) {
	        options = replacer;
	    }
	    if (typeof options === 'string')
	        options = options.length;
	    if (typeof options === 'number') {
	        const indent = Math.round(options);
	        options = indent < 1 ? undefined : indent > 8 ? { indent: 8 } : { indent };
	    }
	    if (value === undefined) {
	        const { keepUndefined } = options ?? replacer ?? {};
	        if (!keepUndefined)
	            return undefined;
	    }
	    if (identity.isDocument(value) && !_replacer)
	        return value.toString(options);
	    return new Document.Document(value, _replacer, options).toString(options);
	}

	publicApi.parse = parse;
	publicApi.parseAllDocuments = parseAllDocuments;
	publicApi.parseDocument = parseDocument;
	publicApi.stringify = stringify;
	return publicApi;
}

var hasRequiredDist;

function requireDist () {
	if (hasRequiredDist) return dist;
	hasRequiredDist = 1;

	var composer = requireComposer();
	var Document = requireDocument();
	var Schema = requireSchema();
	var errors = requireErrors();
	var Alias = requireAlias();
	var identity = requireIdentity();
	var Pair = requirePair();
	var Scalar = requireScalar();
	var YAMLMap = requireYAMLMap();
	var YAMLSeq = requireYAMLSeq();
	var cst = requireCst();
	var lexer = requireLexer();
	var lineCounter = requireLineCounter();
	var parser = requireParser();
	var publicApi = requirePublicApi();
	var visit = requireVisit();



	dist.Composer = composer.Composer;
	dist.Document = Document.Document;
	dist.Schema = Schema.Schema;
	dist.YAMLError = errors.YAMLError;
	dist.YAMLParseError = errors.YAMLParseError;
	dist.YAMLWarning = errors.YAMLWarning;
	dist.Alias = Alias.Alias;
	dist.isAlias = identity.isAlias;
	dist.isCollection = identity.isCollection;
	dist.isDocument = identity.isDocument;
	dist.isMap = identity.isMap;
	dist.isNode = identity.isNode;
	dist.isPair = identity.isPair;
	dist.isScalar = identity.isScalar;
	dist.isSeq = identity.isSeq;
	dist.Pair = Pair.Pair;
	dist.Scalar = Scalar.Scalar;
	dist.YAMLMap = YAMLMap.YAMLMap;
	dist.YAMLSeq = YAMLSeq.YAMLSeq;
	dist.CST = cst;
	dist.Lexer = lexer.Lexer;
	dist.LineCounter = lineCounter.LineCounter;
	dist.Parser = parser.Parser;
	dist.parse = publicApi.parse;
	dist.parseAllDocuments = publicApi.parseAllDocuments;
	dist.parseDocument = publicApi.parseDocument;
	dist.stringify = publicApi.stringify;
	dist.visit = visit.visit;
	dist.visitAsync = visit.visitAsync;
	return dist;
}

var distExports = requireDist();

// Maps a key path in the parsed config back to a line and column in the YAML source.
const START = { line: 1, col: 1 };
/**
 * Where `path` is written. With `atKey`, the key itself (an unknown key is a problem of the key, not of
 * its value); for a path that does not exist (a missing key), the nearest enclosing node that does.
 */
function positionOf(doc, lineCounter, path, atKey = false) {
    const at = (offset) => lineCounter.linePos(offset);
    if (atKey && path.length > 0) {
        const parent = nodeAt(doc, path.slice(0, -1));
        const key = String(path[path.length - 1]);
        if (distExports.isMap(parent)) {
            const pair = parent.items.find((item) => distExports.isScalar(item.key) && String(item.key.value) === key);
            if (distExports.isNode(pair?.key) && pair.key.range)
                return at(pair.key.range[0]);
        }
    }
    for (let length = path.length; length >= 0; length--) {
        const node = nodeAt(doc, path.slice(0, length));
        if (distExports.isNode(node) && node.range)
            return at(node.range[0]);
    }
    return START;
}
function nodeAt(doc, path) {
    if (path.length === 0)
        return doc.contents;
    return doc.getIn(path, true);
}

// Reads the zod schema itself (not a copy of it) so messages, did-you-mean candidates and the printed
// config always follow the schema as it evolves.
const defOf = (schema) => schema._zod.def;
const WRAPPERS = new Set(['default', 'optional', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional']);
/** duration() and size() in schema.ts describe themselves; that description is how we recognize them. */
function specialKind(schema) {
    let current = schema;
    while (current) {
        const description = globalRegistry.get(current)?.description ?? '';
        if (description.startsWith('A duration'))
            return 'duration';
        if (description.startsWith('A size'))
            return 'size';
        const def = defOf(current);
        current = WRAPPERS.has(def.type) ? def.innerType : undefined;
    }
    return undefined;
}
/** Strips default/optional wrappers and follows pipes to the schema that checks the input. */
function unwrap(schema) {
    let current = schema;
    for (;;) {
        const def = defOf(current);
        if (WRAPPERS.has(def.type) && def.innerType)
            current = def.innerType;
        else if (def.type === 'pipe' && def.in)
            current = def.in;
        else
            return current;
    }
}
/** The schema that validates the value at `path`, or undefined when the path leaves the schema. */
function schemaAt(root, path) {
    let current = root;
    for (const key of path) {
        if (!current)
            return undefined;
        current = childSchema(unwrap(current), key);
    }
    return current;
}
function childSchema(schema, key) {
    const def = defOf(schema);
    switch (def.type) {
        case 'object':
            return typeof key === 'string' ? def.shape?.[key] : undefined;
        case 'array':
            return typeof key === 'number' ? def.element : undefined;
        case 'record':
            return def.valueType;
        case 'union':
            for (const option of def.options ?? []) {
                const child = childSchema(unwrap(option), key);
                if (child)
                    return child;
            }
            return undefined;
        default:
            return undefined;
    }
}
/** The keys a mapping may hold: an object's fields, or the allowed keys of an enum-keyed record. */
function allowedKeys(schema) {
    const def = defOf(unwrap(schema));
    if (def.type === 'object')
        return Object.keys(def.shape ?? {});
    if (def.type === 'record' && def.keyType)
        return enumValues(def.keyType);
    return [];
}
function enumValues(schema) {
    const def = defOf(unwrap(schema));
    return def.type === 'enum' ? Object.values(def.entries ?? {}).map(String) : [];
}
const isInteger = (schema) => schema.format === 'safeint';
/** What a user should write here, in words: "a list of strings", "one of auto, always, never". */
function describeExpected(schema) {
    const kind = specialKind(schema);
    if (kind === 'duration')
        return 'a duration like 30s or 10m';
    if (kind === 'size')
        return 'a size like 512KiB or 5MiB';
    const inner = unwrap(schema);
    const def = defOf(inner);
    switch (def.type) {
        case 'string':
            return 'a string';
        case 'number':
            return isInteger(inner) ? 'a whole number' : 'a number';
        case 'boolean':
            return 'true or false';
        case 'enum':
            return `one of ${enumValues(inner).join(', ')}`;
        case 'array':
            return `a list of ${describePlural(def.element)}`;
        case 'union':
            return (def.options ?? []).map(describeExpected).join(' or ');
        case 'object':
            return 'a mapping (key: value)';
        case 'record':
            return `a mapping of ${describePlural(def.valueType)}`;
        default:
            return def.type;
    }
}
function describePlural(schema) {
    if (!schema)
        return 'values';
    const kind = specialKind(schema);
    if (kind)
        return `${kind}s`;
    const inner = unwrap(schema);
    const def = defOf(inner);
    switch (def.type) {
        case 'string':
            return 'strings';
        case 'number':
            return isInteger(inner) ? 'whole numbers' : 'numbers';
        case 'boolean':
            return 'true/false values';
        case 'enum':
            return `values (${enumValues(inner).join(', ')})`;
        case 'array':
            return 'lists';
        case 'object':
        case 'record':
            return 'mappings (key: value)';
        default:
            return 'values';
    }
}
/** What the user actually wrote, in the same words: "a number (5)", "a list". */
function describeValue(value) {
    if (value === null || value === undefined)
        return 'an empty value';
    if (Array.isArray(value))
        return 'a list';
    switch (typeof value) {
        case 'string':
            return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
        case 'number':
            return `a number (${value})`;
        case 'boolean':
            return `${value}`;
        case 'object':
            return 'a mapping';
        default:
            return typeof value;
    }
}
/**
 * Every key path of a schema as the docs write it: `agent.command`, `detect[].respond.send`,
 * `hooks.<event>[].async` (records with enum keys are written `<event>`).
 */
function keyPaths(schema, prefix = '') {
    const def = defOf(unwrap(schema));
    if (def.type === 'object') {
        return Object.entries(def.shape ?? {}).flatMap(([key, child]) => {
            const path = prefix ? `${prefix}.${key}` : key;
            return [path, ...keyPaths(child, path)];
        });
    }
    if (def.type === 'array' && def.element)
        return keyPaths(def.element, `${prefix}[]`);
    if (def.type === 'record' && def.valueType && def.keyType && enumValues(def.keyType).length > 0) {
        return keyPaths(def.valueType, `${prefix}.<event>`);
    }
    return [];
}

// "Did you mean" for misspelled keys and enum values.
/** Optimal string alignment distance: Levenshtein plus adjacent transpositions ("stpo" → "stop" is 1). */
function editDistance(a, b) {
    const rows = a.length + 1;
    const cols = b.length + 1;
    const d = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i < rows; i++) {
        for (let j = 1; j < cols; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
                best = Math.min(best, d[i - 2][j - 2] + 1);
            d[i][j] = best;
        }
    }
    return d[a.length][b.length];
}
// Case and "-" vs "_" are the most common slips (max-stop-rounds, Timeout), so they cost nothing.
const normalize = (word) => word.toLowerCase().replace(/-/g, '_');
/** The closest candidate, if it is close enough to be a plausible typo of `word`. */
function closest(word, candidates) {
    const target = normalize(word);
    let best;
    let bestDistance = Infinity;
    for (const candidate of candidates) {
        const distance = editDistance(target, normalize(candidate));
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    const allowed = Math.max(1, Math.floor(target.length / 3));
    return bestDistance <= allowed ? best : undefined;
}

// Words YAML 1.1 (and many habits) treat as booleans; YAML 1.2, which proctor reads, keeps them strings.
const YAML11_BOOLEANS = /^(y|yes|n|no|on|off)$/i;
function valueAt(root, path) {
    let current = root;
    for (const key of path) {
        if (typeof current !== 'object' || current === null)
            return undefined;
        current = current[key];
    }
    return current;
}
function problemsFromZod(issues, raw, root) {
    return issues.flatMap((issue) => problemsFromIssue(issue, raw, root));
}
function problemsFromIssue(issue, raw, root) {
    const path = issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key));
    const value = valueAt(raw, path);
    const expected = () => {
        const schema = schemaAt(root, path);
        return schema ? describeExpected(schema) : 'something else';
    };
    switch (issue.code) {
        case 'unrecognized_keys': {
            const schema = schemaAt(root, path);
            const allowed = schema ? allowedKeys(schema) : [];
            return issue.keys.map((key) => {
                const guess = closest(key, allowed);
                const elsewhere = guess ? undefined : keyElsewhere(root, key);
                let hint;
                if (guess)
                    hint = `did you mean "${guess}"?`;
                else if (elsewhere)
                    hint = `"${key}" belongs under ${elsewhere}`;
                else if (allowed.length > 0)
                    hint = `allowed keys: ${allowed.join(', ')}`;
                return { path: [...path, key], message: `unknown key "${key}"`, hint, atKey: true };
            });
        }
        case 'invalid_union': {
            // A branch whose problems all lie deeper (e.g. a list whose items are wrong) matched the shape,
            // so its own problems say more than "expected a list of strings or a string".
            const deeper = issue.errors.find((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0));
            if (value !== undefined && deeper) {
                return deeper.flatMap((inner) => problemsFromIssue({ ...inner, path: [...path, ...inner.path] }, raw, root));
            }
            return [typeMismatch(path, value, expected())];
        }
        case 'invalid_type':
            if (issue.expected === 'boolean' && typeof value === 'string' && YAML11_BOOLEANS.test(value)) {
                return [
                    {
                        ...typeMismatch(path, value, expected()),
                        hint: `YAML 1.2 reads ${value} as a string; write true or false`,
                    },
                ];
            }
            return [typeMismatch(path, value, expected())];
        case 'invalid_value': {
            const allowed = issue.values.map(String);
            const guess = typeof value === 'string' ? closest(value, allowed) : undefined;
            return [
                {
                    path,
                    message: `expected one of ${allowed.join(', ')}, got ${describeValue(value)}`,
                    hint: guess ? `did you mean "${guess}"?` : undefined,
                },
            ];
        }
        case 'too_small':
            return [{ path, message: tooSmall(issue, value) }];
        case 'too_big':
            return [{ path, message: tooBig(issue, value) }];
        case 'invalid_format':
            return [invalidFormat(path, issue, value)];
        case 'invalid_key':
            return [{ path, message: `invalid key: ${issue.message}` }];
        default:
            return [{ path, message: issue.message }];
    }
}
/** A key written at the wrong level (`interval:` at the top instead of under `checkpoints:`). */
function keyElsewhere(root, key) {
    const homes = keyPaths(root)
        .filter((path) => path.split('.').pop() === key)
        .map((path) => path.slice(0, -key.length - 1));
    return homes.length > 0 ? homes.join(', ') : undefined;
}
function typeMismatch(path, value, expected) {
    if (value === undefined && path.length > 0) {
        return {
            path,
            message: `missing required key "${String(path[path.length - 1])}"`,
            hint: `expected ${expected}`,
        };
    }
    return { path, message: `expected ${expected}, got ${describeValue(value)}` };
}
function tooSmall(issue, value) {
    const min = Number(issue.minimum);
    if (issue.origin === 'string')
        return min === 1 ? 'must not be empty' : `must be at least ${min} characters long`;
    if (issue.origin === 'array' || issue.origin === 'set')
        return min === 1 ? 'must not be empty' : `needs at least ${min} items`;
    return `must be at least ${min}, got ${String(value)}`;
}
function tooBig(issue, value) {
    const max = Number(issue.maximum);
    if (issue.origin === 'string')
        return `must be at most ${max} characters long`;
    if (issue.origin === 'array' || issue.origin === 'set')
        return `must have at most ${max} items`;
    return `must be at most ${max}, got ${String(value)}`;
}
function invalidFormat(path, issue, value) {
    const written = JSON.stringify(value);
    if (path[path.length - 1] === 'flags') {
        return {
            path,
            message: `${written} are not valid regular expression flags`,
            hint: 'use only i, m, s and u',
        };
    }
    if (issue.message.startsWith('Invalid string')) {
        const pattern = 'pattern' in issue ? ` ${String(issue.pattern)}` : '';
        return { path, message: `${written} does not match the expected format${pattern}` };
    }
    return { path, message: `${written} is not valid: ${issue.message}` };
}

/** Events whose hooks must finish before proctor can decide, so they can never run async. */
const ANSWERED_EVENTS = ['stop'];
const isObject$1 = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isSet = (value) => value !== undefined && value !== null;
function crossCheck(raw) {
    if (!isObject$1(raw))
        return [];
    return [
        ...checkAgent(raw),
        ...checkBatch(raw),
        ...checkStopHookNames(raw),
        ...checkAnsweredHooks(raw),
        ...checkRegexes(raw),
    ];
}
function checkAgent(raw) {
    const agent = raw.agent;
    if (!isObject$1(agent) || !isSet(agent.command) || !isSet(agent.shell))
        return [];
    return [
        {
            path: ['agent', 'shell'],
            atKey: true,
            message: 'agent.command and agent.shell cannot both be set',
            hint: 'keep command (an argv list, run directly) or shell (a string run by /bin/sh -c)',
        },
    ];
}
function checkBatch(raw) {
    const tasks = isObject$1(raw.batch) ? raw.batch.tasks : undefined;
    if (!Array.isArray(tasks))
        return [];
    return tasks.flatMap((task, index) => {
        if (!isObject$1(task))
            return [];
        const path = ['batch', 'tasks', index];
        if (isSet(task.command) && isSet(task.shell)) {
            return [
                {
                    path: [...path, 'shell'],
                    atKey: true,
                    message: 'a batch task cannot have both command and shell',
                    hint: 'keep command (an argv list) or shell (a string run by /bin/sh -c)',
                },
            ];
        }
        if (!isSet(task.command) && !isSet(task.shell)) {
            return [
                {
                    path,
                    message: 'a batch task needs a command or a shell',
                    hint: 'add command: [file, args…] or shell: "…"',
                },
            ];
        }
        return [];
    });
}
function checkStopHookNames(raw) {
    if (!Array.isArray(raw.stop_hooks))
        return [];
    const firstIndex = new Map();
    const problems = [];
    raw.stop_hooks.forEach((hook, index) => {
        if (!isObject$1(hook) || typeof hook.name !== 'string')
            return;
        if (hook.name === 'policy') {
            problems.push({
                path: ['stop_hooks', index, 'name'],
                message: `the stop hook name "policy" is reserved for proctor's policy gate`,
                hint: 'its check run "proctor / policy" reports the policy; give this hook another name',
            });
            return;
        }
        const first = firstIndex.get(hook.name);
        if (first === undefined) {
            firstIndex.set(hook.name, index);
            return;
        }
        problems.push({
            path: ['stop_hooks', index, 'name'],
            message: `duplicate stop hook name "${hook.name}" (also stop_hooks[${first}])`,
            hint: 'each stop hook is reported as the check "proctor / <name>", so names must be unique',
        });
    });
    return problems;
}
function checkAnsweredHooks(raw) {
    if (!isObject$1(raw.hooks))
        return [];
    const hooks = raw.hooks;
    return ANSWERED_EVENTS.flatMap((event) => {
        const entries = hooks[event];
        if (!Array.isArray(entries))
            return [];
        return entries.flatMap((entry, index) => isObject$1(entry) && entry.async === true
            ? [
                {
                    path: ['hooks', event, index, 'async'],
                    message: `the ${event} event needs an answer, so it cannot run async; remove async or move the hook to session_end`,
                },
            ]
            : []);
    });
}
function checkRegexes(raw) {
    if (!Array.isArray(raw.detect))
        return [];
    return raw.detect.flatMap((rule, index) => {
        if (!isObject$1(rule) || typeof rule.match !== 'string' || rule.match === '')
            return [];
        // Invalid flags are reported by the schema; check the pattern with the flags only when they are valid.
        const flags = typeof rule.flags === 'string' && /^[imsu]*$/.test(rule.flags) ? rule.flags : '';
        try {
            new RegExp(rule.match, flags);
            const unsafe = catastrophicRegex(rule.match, flags);
            return unsafe ? [{ path: ['detect', index, 'match'], ...unsafe }] : [];
        }
        catch (error) {
            const reason = error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
            return [
                {
                    path: ['detect', index, 'match'],
                    message: `${JSON.stringify(rule.match)} is not a valid regular expression: ${reason}`,
                    hint: 'escape special characters such as ( [ { ? * + with a backslash',
                },
            ];
        }
    });
}

function semanticProblems(config) {
    const problems = [];
    const names = new Map();
    config.detect.forEach((rule, index) => {
        const first = names.get(rule.name);
        if (first !== undefined) {
            problems.push({
                path: ['detect', index, 'name'],
                message: `duplicate detect rule name "${rule.name}" (also detect[${first}])`,
                hint: 'give each rule its own name: events and responses are recorded by rule name',
            });
            return;
        }
        names.set(rule.name, index);
        try {
            compileRule(rule);
        }
        catch (error) {
            if (!(error instanceof DetectRuleError))
                throw error;
            problems.push({ path: ['detect', index], message: error.message.replace(/^detect rule "[^"]*": /, '') });
        }
    });
    // The branch template is checked by the code that pushes, with a sample session id: `config validate`
    // must reject what `run` would (exit 2, with the line), not let it fail at the first push.
    try {
        remoteBranchFor(config.checkpoints.branch, 'sample-session-1');
    }
    catch (error) {
        problems.push({
            path: ['checkpoints', 'branch'],
            message: error.message.replace(/^checkpoints\.branch /, ''),
        });
    }
    const policy = checkPolicyConfig(config.policy);
    for (const message of policy.errors)
        problems.push(policyProblem(message));
    return { problems, warnings: policy.warnings.map((message) => ({ path: ['policy'], message })) };
}
/** The policy compiler names the key in its message ("policy.forbidden_areas[0]: …"): point at that key. */
function policyProblem(message) {
    const m = /^policy\.(\w+)(?:\[(\d+)\]|\.(\w+))?: ([\s\S]*)$/.exec(message);
    if (!m)
        return { path: ['policy'], message };
    const path = ['policy', m[1]];
    if (m[2] !== undefined)
        path.push(Number(m[2]));
    if (m[3] !== undefined)
        path.push(m[3]);
    return { path, message: m[4] };
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The preset to apply, or null. Throws an Error naming the choices for an unknown name. */
function chosenPreset(raw, choice = {}) {
    const fromFile = isObject(raw) && isObject(raw.agent) ? raw.agent.preset : undefined;
    const name = choice.preset ?? fromFile;
    if (name === undefined || name === null)
        return null;
    const preset = typeof name === 'string' ? findAgentPreset(name) : undefined;
    if (!preset) {
        // An unknown name in the file is left to the schema, which reports it at its line.
        if (choice.preset === undefined)
            return null;
        throw new Error(`unknown agent preset "${String(name)}"; choose one of: ${agentPresetChoices().join(', ')}`);
    }
    return preset;
}
/** The user's raw config with the preset beneath it (a new object; `raw` is not changed). */
function applyAgentPreset(raw, choice = {}) {
    const preset = chosenPreset(raw, choice);
    if (!preset)
        return raw;
    const user = isObject(raw) ? raw : {};
    const argv = choice.argv ?? agentArgv(user);
    let base = preset.config;
    if (preset.interactive && preset.isInteractive?.(argv))
        base = merge(base, preset.interactive, []);
    const merged = merge(base, user, []);
    merged.agent = { ...(isObject(merged.agent) ? merged.agent : {}), preset: preset.name };
    return merged;
}
function agentArgv(user) {
    const agent = isObject(user.agent) ? user.agent : {};
    if (Array.isArray(agent.command))
        return agent.command.filter((a) => typeof a === 'string');
    if (typeof agent.shell === 'string')
        return agent.shell.split(/\s+/);
    return [];
}
/** Deep merge where `over` wins; detect rules merge by name, hook lists concatenate. */
function merge(under, over, path) {
    if (over === undefined)
        return structuredClone(under);
    if (under === undefined)
        return structuredClone(over);
    const key = path.join('.');
    if (key === 'detect' && Array.isArray(under) && Array.isArray(over))
        return mergeRules(under, over);
    if ((path[0] === 'hooks' && path.length === 2) || key === 'stop_hooks') {
        if (Array.isArray(under) && Array.isArray(over))
            return [...structuredClone(under), ...structuredClone(over)];
    }
    if (isObject(under) && isObject(over)) {
        const out = {};
        for (const k of new Set([...Object.keys(under), ...Object.keys(over)]))
            out[k] = merge(under[k], over[k], [...path, k]);
        return out;
    }
    return structuredClone(over);
}
/** The user's rules first (they are matched first), then the preset's that the user did not replace. */
function mergeRules(presetRules, userRules) {
    const names = new Set(userRules.map((r) => (isObject(r) ? r.name : undefined)));
    const kept = presetRules.filter((r) => !(isObject(r) && names.has(r.name)));
    return [...structuredClone(userRules), ...structuredClone(kept)];
}

// proctor.yml text → validated Config, or a ConfigError listing every problem with file:line:col.
const ASYNC_POOL_RANGE = { min: 1, max: 100 };
/**
 * Parses and validates config text; `fileName` is only used in messages. The agent preset (agent.preset,
 * or `preset` from the command line) is applied beneath the file before validation. Throws ConfigError.
 */
function parseConfigText(text, fileName, preset = {}) {
    const lineCounter = new distExports.LineCounter();
    const doc = distExports.parseDocument(text, { lineCounter, uniqueKeys: true, strict: true, prettyErrors: true });
    const issueAt = (offset, message, hint) => {
        const { line, col } = lineCounter.linePos(offset);
        return { file: fileName, line, col, path: '', message, hint };
    };
    if (doc.errors.length > 0) {
        throw new ConfigError(doc.errors.map((error) => yamlIssue(error, text, issueAt)));
    }
    let raw;
    try {
        raw = doc.toJS() ?? {}; // an empty file (or only comments) means "all defaults"
    }
    catch (error) {
        throw new ConfigError([issueAt(0, `invalid YAML: ${error.message}`)]);
    }
    let withPreset;
    try {
        withPreset = applyAgentPreset(raw, preset);
    }
    catch (error) {
        throw new ConfigError([issueAt(0, error.message)]);
    }
    // Problems are located in the user's file; the preset's own values are valid by construction (tested).
    const result = configSchema.safeParse(withPreset);
    const problems = [
        ...(result.success ? [] : problemsFromZod(result.error.issues, raw, configSchema)),
        ...crossCheck(raw),
    ];
    const issues = problems.map((problem) => locate(problem, doc, lineCounter, fileName));
    if (issues.length > 0 || !result.success)
        throw new ConfigError(sortAndDedupe(issues));
    const warnings = doc.warnings.map((warning) => formatIssue(issueAt(warning.pos[0], stripPosition(warning.message))));
    const config = result.data;
    const semantic = semanticProblems(config);
    if (semantic.problems.length > 0) {
        throw new ConfigError(sortAndDedupe(semantic.problems.map((p) => locate(p, doc, lineCounter, fileName))));
    }
    for (const problem of semantic.warnings)
        warnings.push(formatIssue(locate(problem, doc, lineCounter, fileName)));
    const pool = config.hooks_async_pool_size;
    const clamped = Math.min(ASYNC_POOL_RANGE.max, Math.max(ASYNC_POOL_RANGE.min, pool));
    if (clamped !== pool) {
        config.hooks_async_pool_size = clamped;
        const problem = {
            path: ['hooks_async_pool_size'],
            message: `${pool} is outside ${ASYNC_POOL_RANGE.min}–${ASYNC_POOL_RANGE.max}; using ${clamped}`,
        };
        warnings.push(formatIssue(locate(problem, doc, lineCounter, fileName)));
    }
    return { config, warnings };
}
function locate(problem, doc, lineCounter, file) {
    const { line, col } = positionOf(doc, lineCounter, problem.path, problem.atKey);
    return { file, line, col, path: formatPath(problem.path), message: problem.message, hint: problem.hint };
}
// prettyErrors appends " at line 3, column 1:" and a source excerpt; we print our own position instead.
const stripPosition = (message) => message.replace(/ at line \d+, column \d+:[\s\S]*$/, '');
function yamlIssue(error, text, issueAt) {
    if (error.code === 'DUPLICATE_KEY') {
        const key = (/^[^:\n]*/.exec(text.slice(error.pos[0]))?.[0] ?? '').trim().replace(/^(["'])(.*)\1$/, '$2');
        return issueAt(error.pos[0], `duplicate key "${key}"`, 'a key may appear only once in a mapping; keep one of them');
    }
    return issueAt(error.pos[0], `invalid YAML: ${stripPosition(error.message)}`);
}
function sortAndDedupe(issues) {
    const seen = new Set();
    return issues
        .sort((a, b) => a.line - b.line || a.col - b.col)
        .filter((issue) => {
        const key = formatIssue(issue);
        if (seen.has(key))
            return false;
        seen.add(key);
        return true;
    });
}

// Finds proctor.yml (repository root, or the current directory outside a repository) and loads it.
const CONFIG_FILE_NAMES = ['proctor.yml', 'proctor.yaml'];
/** The config file proctor reads by default, or null if there is none. */
function findConfigFile(cwd) {
    const dir = findRepoRoot(cwd) ?? resolve(cwd);
    const found = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((file) => isFile(file));
    if (found.length > 1) {
        throw fileProblem(found[0], cwd, `both ${CONFIG_FILE_NAMES.join(' and ')} exist in ${dir}`, 'keep one of them');
    }
    return found[0] ?? null;
}
async function loadConfig(opts) {
    const file = opts.file !== undefined ? explicitFile(opts.file, opts.cwd) : findConfigFile(opts.cwd);
    if (file === null) {
        const config = opts.preset?.preset
            ? parseConfigText('', 'defaults', opts.preset).config
            : configSchema.parse({});
        return { config, file: null, source: 'defaults', warnings: [] };
    }
    let text;
    try {
        text = readFileSync(file, 'utf8');
    }
    catch (error) {
        throw fileProblem(file, opts.cwd, `cannot read the config file: ${error.message}`);
    }
    const { config, warnings } = parseConfigText(text, displayName(file, opts.cwd), opts.preset);
    return { config, file, source: 'file', warnings };
}
function explicitFile(given, cwd) {
    const file = resolve(cwd, given);
    if (!existsSync(file)) {
        throw fileProblem(file, cwd, 'config file not found', 'check the path given with -c, or leave -c out to use proctor.yml at the repository root');
    }
    if (!isFile(file))
        throw fileProblem(file, cwd, 'is not a file', 'give -c the path of a proctor.yml file');
    return file;
}
/** The name used in messages: relative to where the user stands, so it can be clicked or copied. */
function displayName(file, cwd) {
    const rel = relative(resolve(cwd), file);
    return rel === '' ? file : rel;
}
function fileProblem(file, cwd, message, hint) {
    return new ConfigError([{ file: displayName(file, cwd), line: 0, col: 0, path: '', message, hint }]);
}
function isFile(path) {
    try {
        return statSync(path).isFile();
    }
    catch {
        return false;
    }
}

export { Detector as D, compileRules as a, lifecycleEvents as b, configSchema as c, decodeKeys as d, distExports as e, displayName as f, loadConfig as l, specialKind as s, toJSONSchema as t, unwrap as u };
