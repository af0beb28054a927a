import { g as getDefaultExportFromCjs } from './commonjs-helpers-Bgu_3bK-.js';

var safeRegex2 = {exports: {}};

var dist$1 = {exports: {}};

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

var dist = dist$1.exports;

var hasRequiredDist;

function requireDist () {
	if (hasRequiredDist) return dist$1.exports;
	hasRequiredDist = 1;
	(function (module, exports) {
		var __createBinding = (dist && dist.__createBinding) || (Object.create ? (function(o, m, k, k2) {
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
		var __exportStar = (dist && dist.__exportStar) || function(m, exports) {
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
		
	} (dist$1, dist$1.exports));
	return dist$1.exports;
}

var hasRequiredSafeRegex2;

function requireSafeRegex2 () {
	if (hasRequiredSafeRegex2) return safeRegex2.exports;
	hasRequiredSafeRegex2 = 1;

	const parse = requireDist();
	const { types } = requireDist();

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

var distExports = requireDist();
var ret = /*@__PURE__*/getDefaultExportFromCjs(distExports);

// Catastrophic-backtracking check for the regular expressions a config gives proctor (detect rules): one
// such rule, `(a+)+$`, froze the supervisor. safe-regex2 (the Fastify team's, plain JS) is the quick first
// look: a pattern without a quantifier inside a quantified group is let through at once. Its verdict on the
// rest is only a suspicion — it also flags `✻ \S+ for (\d+m )?\d+s`, whose optional group repeats at most
// once — so a suspected pattern is measured before it is refused: each repeated part of it is pumped
// (`prefix + body×n + a character that makes the match fail`, the input that makes a backtracking engine
// try every way of splitting the body), and a backtracking matcher over the pattern's syntax tree counts
// the steps a match takes. A pattern is refused only when those steps explode (over STEP_BUDGET on a line
// of a few dozen characters: exponential), or grow so fast with the line that a line of MAX_LINE characters
// would take more than PROJECTED_LIMIT steps (a high-degree polynomial). Counting steps, not timing V8,
// gives the same verdict on every machine, and V8 cannot be asked: proctor turns on its linear fallback
// for excessive backtracking (supervisor/safe-regex.ts), process-wide. That fallback and the worker's
// deadline still guard every match at run time.
// ret's CommonJS module is the tokenizer itself (what safe-regex2 calls); its typings call it a namespace.
const tokenize = ret;
/** Steps a single match may take on an attack line before the pattern is called exponential. */
const STEP_BUDGET = 200_000;
/**
 * Steps for all the attacks on one pattern (under a second): a pattern no attack exploded within them is let through
 * (not proven to backtrack) and left to the run-time guards.
 */
const TOTAL_BUDGET = 1_000_000;
/** How many times the repeated part is pumped: twice, to see how the steps grow. */
const PUMPS = [10, 20];
/** The longest line a rule is matched on (MAX_MATCH_INPUT in supervisor/safe-regex.ts). */
const MAX_LINE = 4096;
/** Projected steps on a MAX_LINE line beyond which matching would take seconds or more. */
const PROJECTED_LIMIT = 1e9;
/** Characters that end an attack line so that the match fails and every split is tried. */
const ENDINGS = [0x01, 0x21, 0x20];
/** Null when `pattern` is safe; otherwise why not (measured) and how to fix it. */
function catastrophicRegex(pattern, flags = '') {
    try {
        new RegExp(pattern, flags);
    }
    catch {
        return null; // invalid patterns are reported on their own
    }
    if (safeRegex(pattern))
        return null;
    let root;
    try {
        root = tokenize(pattern);
    }
    catch {
        return null; // syntax the tokenizer does not know (lookbehind): left to the run-time guards
    }
    const found = measure(root, flags.includes('i'));
    if (!found)
        return null;
    return {
        message: `${JSON.stringify(pattern)} can backtrack catastrophically (measured: ${found})`,
        hint: 'drop the inner or the outer quantifier, e.g. write (a+)+$ as a+$ and (\\w+\\s?)+ as [\\w\\s]+',
    };
}
/** What makes `root` explode, in words, or null when no attack line does. */
function measure(root, ignoreCase) {
    let spent = 0;
    for (const target of repetitions(root)) {
        const before = prefixTo(root, target) ?? [];
        const pumps = new Map();
        for (const body of [witness(target.value, false), witness(target.value, true)])
            if (body.length > 0)
                pumps.set(String.fromCharCode(...body), body);
        for (const body of pumps.values()) {
            for (const end of ENDINGS) {
                const line = (n) => [...before, ...Array.from({ length: n }, () => body).flat(), end];
                if (spent > TOTAL_BUDGET)
                    return null;
                const [short, long] = PUMPS.map((n) => steps(root, line(n), ignoreCase));
                spent += (short ?? STEP_BUDGET) + (long ?? STEP_BUDGET);
                const shown = (n) => `${before.length ? `${JSON.stringify(String.fromCharCode(...before))} + ` : ''}` +
                    `${JSON.stringify(String.fromCharCode(...body))} × ${n} + ${JSON.stringify(String.fromCharCode(end))}`;
                if (short === null || long === null) {
                    const n = short === null ? PUMPS[0] : PUMPS[1];
                    return `more than ${STEP_BUDGET.toLocaleString('en-US')} backtracking steps on the ${line(n).length}-character line ${shown(n)}`;
                }
                const degree = Math.log2(long / Math.max(short, 1));
                const projected = long * (MAX_LINE / line(PUMPS[1]).length) ** degree;
                if (degree > 1.5 && projected > PROJECTED_LIMIT)
                    return `its steps grow as n^${degree.toFixed(1)} on ${shown(PUMPS[1])}, about ${projected.toExponential(0)} on a ${MAX_LINE}-character line`;
            }
        }
    }
    return null;
}
/** Every quantifier that can repeat its body more than once, outermost first. */
function repetitions(node) {
    const found = [];
    const walk = (n) => {
        if (n.type === distExports.types.REPETITION) {
            if (n.max > 1)
                found.push(n);
            walk(n.value);
        }
        for (const child of children(n))
            walk(child);
    };
    walk(node);
    return found;
}
function children(n) {
    if (n.type !== distExports.types.ROOT && n.type !== distExports.types.GROUP)
        return [];
    return n.options ? n.options.flat() : (n.stack ?? []);
}
/** A shortest text `node` matches (`nonEmpty`: optional parts taken once), as UTF-16 code units. */
function witness(node, nonEmpty) {
    switch (node.type) {
        case distExports.types.CHAR:
            return [node.value];
        case distExports.types.SET: {
            const c = memberOf(node);
            return c === null ? [] : [c];
        }
        case distExports.types.REPETITION: {
            const once = witness(node.value, nonEmpty);
            const times = Math.max(node.min, nonEmpty ? 1 : 0);
            return Array.from({ length: times }, () => once).flat();
        }
        case distExports.types.GROUP:
        case distExports.types.ROOT: {
            if (node.type === distExports.types.GROUP && (node.followedBy || node.notFollowedBy))
                return [];
            if (node.options) {
                const all = node.options.map((option) => option.flatMap((t) => witness(t, nonEmpty)));
                return all.reduce((a, b) => (b.length < a.length ? b : a));
            }
            return (node.stack ?? []).flatMap((t) => witness(t, nonEmpty));
        }
        default:
            return [];
    }
}
/** The text a match has consumed when it reaches `target` by the shortest way, or null if it never does. */
function prefixTo(node, target) {
    if (node === target)
        return [];
    if (node.type === distExports.types.REPETITION)
        return prefixTo(node.value, target);
    if (node.type !== distExports.types.ROOT && node.type !== distExports.types.GROUP)
        return null;
    for (const sequence of node.options ?? [node.stack ?? []]) {
        const consumed = [];
        for (const token of sequence) {
            const inner = prefixTo(token, target);
            if (inner)
                return [...consumed, ...inner];
            consumed.push(...witness(token, false));
        }
    }
    return null;
}
const CANDIDATES = [0x61, 0x30, 0x20, 0x41, 0x5f, 0x2d, 0x2e, 0x21, 0x09, 0x7b, 0x2500];
/** A character the set matches (letters, digits, space first), or null. */
function memberOf(set) {
    const own = set.set.map((item) => item.type === distExports.types.RANGE ? item.from : item.type === distExports.types.CHAR ? item.value : -1);
    for (const c of [...CANDIDATES, ...own])
        if (c >= 0 && inSet(set, c, false))
            return c;
    return null;
}
function inSet(set, c, ignoreCase) {
    const has = set.set.some((item) => {
        if (item.type === distExports.types.SET)
            return inSet(item, c, ignoreCase);
        if (item.type === distExports.types.RANGE)
            return (c >= item.from && c <= item.to) || (ignoreCase && inRangeFolded(item.from, item.to, c));
        return same(item.value, c, ignoreCase);
    });
    return set.not ? !has : has;
}
function inRangeFolded(from, to, c) {
    const other = fold(c);
    return other !== c && other >= from && other <= to;
}
function fold(c) {
    const s = String.fromCharCode(c);
    const lower = s.toLowerCase();
    return (lower !== s ? lower : s.toUpperCase()).charCodeAt(0);
}
function same(a, b, ignoreCase) {
    return a === b || (ignoreCase && fold(a) === b);
}
const isWord = (c) => c !== undefined && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95);
class OverBudget extends Error {
}
/**
 * The steps a backtracking matcher takes to search `input` for `root` from every start (as RegExp.exec
 * does), or null beyond STEP_BUDGET. Back-references match empty text: such patterns run on the worker
 * with a deadline anyway.
 */
function steps(root, input, ignoreCase) {
    let count = 0;
    const n = input.length;
    const tick = () => {
        if (++count > STEP_BUDGET)
            throw new OverBudget();
    };
    const sequence = (tokens, at, i, k) => {
        tick();
        if (at === tokens.length)
            return k(i);
        return one(tokens[at], i, (j) => sequence(tokens, at + 1, j, k));
    };
    const group = (node, i, k) => node.options
        ? node.options.some((option) => sequence(option, 0, i, k))
        : sequence(node.stack ?? [], 0, i, k);
    const one = (token, i, k) => {
        tick();
        switch (token.type) {
            case distExports.types.CHAR:
                return i < n && same(token.value, input[i], ignoreCase) && k(i + 1);
            case distExports.types.SET:
                return i < n && inSet(token, input[i], ignoreCase) && k(i + 1);
            case distExports.types.POSITION: {
                const at = token.value === '^'
                    ? i === 0
                    : token.value === '$'
                        ? i === n
                        : (isWord(input[i - 1]) !== isWord(input[i])) === (token.value === 'b');
                return at && k(i);
            }
            case distExports.types.GROUP:
                if (token.followedBy || token.notFollowedBy) {
                    const ahead = group(token, i, () => true);
                    return ahead === Boolean(token.followedBy) && k(i);
                }
                return group(token, i, k);
            case distExports.types.REPETITION: {
                const repeat = (times, j) => {
                    tick();
                    // Greedy: one more round first (a round that consumed nothing ends the loop), then what follows.
                    if (times < token.max &&
                        one(token.value, j, (m) => (m !== j || times < token.min) && repeat(times + 1, m)))
                        return true;
                    return times >= token.min && k(j);
                };
                return repeat(0, i);
            }
            default:
                return k(i);
        }
    };
    try {
        for (let start = 0; start <= n; start++)
            if (group(root, start, () => true))
                break;
    }
    catch (error) {
        if (error instanceof OverBudget)
            return null;
        throw error;
    }
    return count;
}

export { catastrophicRegex };
