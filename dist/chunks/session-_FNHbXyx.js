import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);

import { setTimeout as setTimeout$1 } from 'node:timers/promises';
import fs__default, { realpathSync, existsSync, writeFileSync } from 'node:fs';
import path, { join, dirname, basename } from 'node:path';
import { a as agentEnvironment, R as ReportBuilder } from './agent-env-DOSZ8v6J.js';
import { EventEmitter } from 'node:events';
import { s as spawnManaged, S as SpawnError } from './process-bTr6ognf.js';
import { D as Detector, a as compileRules, d as decodeKeys } from './load-DcpgJsnN.js';
import { a as getDefaultExportFromCjs } from './_commonjsHelpers-eQonu12B.js';
import { b as stripTerminal, t as typedText } from './sanitize-CuGiiGOW.js';
import { p as pidExists, r as reconcileOrphans, l as liveSessions } from './registry-BQ_ezYsh.js';
import { G as Git, s as splitNul } from './runner-BWUXmy3c.js';
import { a as findRepoRoot, S as STATE_DIR_NAME, e as ensureStateDir, b as sessionDir, f as formatDuration } from './units-uesZE-n4.js';
import { L as LifecycleHooks } from './lifecycle-BLjMZzbs.js';
import { r as runStopHooks } from './stop-hooks-iMasiwmt.js';
import { n as nativeAdapters, a as nativeHookCommand, i as installNativeHooks, s as shellQuote, b as startNativeRelay, p as parseNativeInput, c as continuesBlockSequence, d as continuationMessage, e as planContinuation, t as typedLine } from './native-relay-rE4aou5d.js';
import { randomBytes } from 'node:crypto';
import { W as Workspace, g as atLeast, n as notifiesAgent, h as filesToRevert, i as evaluateCheckpointScopes } from './workspace-r5Zr2x3i.js';
import { b as compilePolicy } from './refs-MgMT0USI.js';
import { a as revertPaths } from './restore-BVw-z3If.js';
import { d as describeCommand } from './run-hook-Bmv1eMLv.js';

// The agent's supervised run: one spawnManaged process plus the limits around it (total time,
// idle time, output size). Every way of ending — exit, timeout, idle, cap, a signal to proctor —
// funnels into the process's single `exited` promise, so the run finalizes exactly once and the
// first stop cause is the one recorded.
class AgentRun extends EventEmitter {
    options;
    /** Resolves once with the run's end (after the 'exit' event). Pending until start() succeeds. */
    finished;
    resolveFinished;
    child;
    totalTimer;
    idleTimer;
    paused = false;
    ended = false;
    outputBytes = 0;
    capReached = false;
    startedAt = new Date();
    startedMs = 0;
    constructor(options) {
        super();
        this.options = options;
        this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    }
    /** Spawns the agent. Throws SpawnError (nothing spawned) for a bad command; attach listeners first. */
    start() {
        if (this.child)
            throw new Error('AgentRun.start() called twice');
        this.startedAt = new Date();
        this.startedMs = performance.now();
        const child = spawnManaged({
            ...this.options.spawn,
            onOutput: (chunk, stream) => this.onOutput(chunk, stream),
        });
        this.child = child;
        this.emit('spawn', { pid: child.pid, pgid: child.pgid, mode: child.mode });
        const total = this.options.totalTimeoutMs ?? 0;
        if (total > 0) {
            this.totalTimer = setTimeout(() => {
                if (this.ended)
                    return;
                this.emit('timeout', { limitMs: total });
                void this.stop('timeout');
            }, total);
        }
        this.armIdle();
        void child.exited.then((exit) => this.finalize(exit));
        return this;
    }
    get pid() {
        return this.child?.pid;
    }
    /** Bytes for the agent (an answer, typed text); resolves with whether they reached it. */
    write(data) {
        if (!this.child)
            return Promise.resolve({ delivered: false, reason: 'the agent has not started' });
        return this.child.write(data);
    }
    /** Freezes the agent's whole group (around a checkpoint); the idle clock stops too. */
    pause() {
        if (!this.child || this.ended || this.paused)
            return;
        this.paused = true;
        clearTimeout(this.idleTimer);
        this.idleTimer = undefined;
        this.child.pause();
    }
    resume() {
        if (!this.child || !this.paused)
            return;
        this.paused = false;
        this.child.resume();
        this.armIdle();
    }
    resize(cols, rows) {
        this.child?.resize(cols, rows);
    }
    /** Stops the agent's group (TERM → grace → KILL). The first cause wins; later calls share its result. */
    async stop(cause, graceMs) {
        if (!this.child)
            throw new Error('AgentRun.stop() before start()');
        this.paused = false;
        void this.child.stop(cause, graceMs);
        return this.finished;
    }
    onOutput(chunk, stream) {
        this.outputBytes += chunk.length;
        this.options.output?.write(chunk, stream);
        this.emit('output', chunk, stream);
        if (!this.paused)
            this.armIdle();
        const cap = this.options.outputCapBytes;
        if (cap !== undefined && !this.capReached && this.outputBytes > cap) {
            this.capReached = true;
            this.emit('output_cap', { limitBytes: cap, bytes: this.outputBytes });
            void this.stop('output_cap');
        }
    }
    armIdle() {
        const idle = this.options.idleTimeoutMs ?? 0;
        if (idle <= 0 || this.ended)
            return;
        // One timer pushed back on every chunk: creating a new one per chunk costs measurably in a flood.
        if (this.idleTimer && !this.paused) {
            this.idleTimer.refresh();
            return;
        }
        this.idleTimer = setTimeout(() => {
            if (this.ended || this.paused)
                return;
            this.emit('idle_timeout', { limitMs: idle });
            void this.stop('idle_timeout');
        }, idle);
    }
    async finalize(exit) {
        this.ended = true;
        clearTimeout(this.totalTimer);
        clearTimeout(this.idleTimer);
        try {
            await this.options.output?.flush?.();
        }
        catch {
            // A failing consumer must not keep the run from finishing; it reports its own errors.
        }
        const endedAt = new Date();
        const result = {
            ...exit,
            cause: exit.stoppedBy,
            startedAt: this.startedAt,
            endedAt,
            durationMs: Math.round(performance.now() - this.startedMs),
            outputBytes: this.outputBytes,
        };
        try {
            this.emit('exit', result);
        }
        finally {
            this.resolveFinished(result);
        }
    }
}

// Capture of the agent's raw output: the full transcript on disk (capped) and a bounded in-memory tail.
function transcriptCapNote(maxBytes, dropped) {
    return `\n[proctor: transcript capped at ${maxBytes} bytes; ${dropped} bytes dropped]\n`;
}
/**
 * A PTY delivers a few KB per read; one disk write per read costs more than everything else proctor
 * does with the bytes. Chunks are copied into one block of BLOCK_BYTES that goes to disk when full,
 * or FLUSH_MS after its first byte so interactive output reaches the file promptly.
 */
const BLOCK_BYTES = 64 * 1024;
const FLUSH_MS = 20;
/**
 * The full raw byte stream, in order, to one file.
 *
 * Blocks are written synchronously. A write to the page cache takes microseconds, which is less than
 * handing it to the thread pool costs, and it keeps memory flat: an asynchronous stream queues every
 * byte the disk has not taken yet (tens of MB in a flood) unless the producer honours backpressure,
 * whereas a blocking write simply delays the next read of the PTY, so a disk that falls behind slows
 * the agent down instead of growing proctor. Nothing is queued beyond the one block.
 */
class Transcript extends EventEmitter {
    path;
    maxBytes;
    fd = null;
    written = 0;
    droppedBytes = 0;
    error = null;
    closing = null;
    block;
    blockUsed = 0;
    flushTimer = null;
    /** Throws when the directory cannot be created; a file that cannot be opened is reported by close(). */
    constructor(filePath, maxBytes) {
        super();
        if (!Number.isFinite(maxBytes) || maxBytes < 0) {
            throw new RangeError(`transcript cap must be a non-negative number of bytes, got ${maxBytes}`);
        }
        this.path = filePath;
        this.maxBytes = maxBytes;
        this.block = Buffer.allocUnsafeSlow(Math.min(BLOCK_BYTES, Math.max(1, maxBytes)));
        fs__default.mkdirSync(path.dirname(filePath), { recursive: true });
        try {
            this.fd = fs__default.openSync(filePath, 'w');
        }
        catch (err) {
            // An unwritable transcript must not take the session down: remember why and keep going without it.
            this.fail(err);
        }
    }
    get bytes() {
        return this.written;
    }
    get dropped() {
        return this.droppedBytes;
    }
    get capped() {
        return this.droppedBytes > 0;
    }
    /** Bytes accepted but not yet handed to the file (at most one block). */
    get pendingBytes() {
        return this.blockUsed;
    }
    /** Appends a chunk (up to the cap). The chunk is copied or written at once, never kept. */
    write(chunk) {
        if (this.closing)
            return;
        const room = this.maxBytes - this.written;
        if (chunk.length > room) {
            const wasCapped = this.capped;
            this.droppedBytes += chunk.length - Math.max(room, 0);
            if (!wasCapped)
                this.emit('capped', this.maxBytes);
            if (room <= 0)
                return;
            chunk = chunk.subarray(0, room);
        }
        this.written += chunk.length;
        if (this.fd === null || chunk.length === 0)
            return;
        if (this.blockUsed + chunk.length > this.block.length)
            this.writeBlock();
        if (chunk.length >= this.block.length) {
            // Larger than a block: straight to the file, no copy.
            this.writeAll(chunk);
            return;
        }
        this.block.set(chunk, this.blockUsed);
        this.blockUsed += chunk.length;
        if (this.blockUsed === this.block.length)
            this.writeBlock();
        else if (!this.flushTimer) {
            this.flushTimer = setTimeout(() => this.writeBlock(), FLUSH_MS);
            this.flushTimer.unref();
        }
    }
    /** Hands the collected block to the file. */
    writeBlock() {
        if (this.flushTimer) {
            clearTimeout(this.flushTimer);
            this.flushTimer = null;
        }
        if (this.blockUsed === 0)
            return;
        const used = this.blockUsed;
        this.blockUsed = 0;
        this.writeAll(this.block.subarray(0, used));
    }
    writeAll(data) {
        if (this.fd === null)
            return;
        try {
            let offset = 0;
            while (offset < data.length)
                offset += fs__default.writeSync(this.fd, data, offset, data.length - offset);
        }
        catch (err) {
            this.fail(err);
        }
    }
    fail(err) {
        this.error ??= `cannot write transcript ${this.path}: ${err.message}`;
        if (this.fd !== null) {
            try {
                fs__default.closeSync(this.fd);
            }
            catch {
                // Already failing; the first error is the one reported.
            }
            this.fd = null;
        }
    }
    /** Appends the cap note when capped, flushes and closes the file. Idempotent. */
    close() {
        if (!this.closing) {
            this.writeBlock();
            if (this.capped)
                this.writeAll(Buffer.from(transcriptCapNote(this.maxBytes, this.droppedBytes)));
            if (this.fd !== null) {
                try {
                    fs__default.closeSync(this.fd);
                }
                catch (err) {
                    this.fail(err);
                }
                this.fd = null;
            }
            this.closing = Promise.resolve({
                path: this.path,
                bytes: this.written,
                capped: this.capped,
                dropped: this.droppedBytes,
                error: this.error,
            });
        }
        return this.closing;
    }
}
/** The last `capacity` bytes of a stream, in a fixed circular buffer: appends copy only what is kept. */
class RingBuffer {
    capacity;
    data;
    /** Next write position. */
    head = 0;
    filled = 0;
    total = 0;
    constructor(capacity) {
        if (!Number.isInteger(capacity) || capacity < 0) {
            throw new RangeError(`output buffer size must be a non-negative whole number of bytes, got ${capacity}`);
        }
        this.capacity = capacity;
        this.data = Buffer.allocUnsafeSlow(capacity);
    }
    /** Bytes currently held (≤ capacity). */
    get size() {
        return this.filled;
    }
    /** Bytes ever appended. */
    get totalBytes() {
        return this.total;
    }
    append(chunk) {
        this.total += chunk.length;
        if (this.capacity === 0 || chunk.length === 0)
            return;
        // Only the last `capacity` bytes of a large chunk can survive; skip copying the rest.
        if (chunk.length >= this.capacity) {
            this.data.set(chunk.subarray(chunk.length - this.capacity));
            this.head = 0;
            this.filled = this.capacity;
            return;
        }
        const first = Math.min(chunk.length, this.capacity - this.head);
        this.data.set(chunk.subarray(0, first), this.head);
        if (first < chunk.length)
            this.data.set(chunk.subarray(first), 0);
        this.head = (this.head + chunk.length) % this.capacity;
        this.filled = Math.min(this.capacity, this.filled + chunk.length);
    }
    /** A copy of the last `maxBytes` bytes held (all of them by default). */
    tail(maxBytes = this.filled) {
        const n = Math.max(0, Math.min(maxBytes, this.filled));
        const out = Buffer.allocUnsafe(n);
        const start = (this.head - n + this.capacity) % (this.capacity || 1);
        const first = Math.min(n, this.capacity - start);
        this.data.copy(out, 0, start, start + first);
        if (first < n)
            this.data.copy(out, first, 0, n - first);
        return out;
    }
    /** The tail decoded as UTF-8, starting at a character boundary. */
    tailString(maxBytes = this.filled) {
        const bytes = this.tail(maxBytes);
        let skip = 0;
        // A cut tail may start inside a multi-byte character: drop its continuation bytes.
        while (skip < bytes.length && skip < 3 && (bytes[skip] & 0xc0) === 0x80)
            skip++;
        return bytes.subarray(skip).toString('utf8');
    }
}

var xtermHeadless = {};

var hasRequiredXtermHeadless;

function requireXtermHeadless () {
	if (hasRequiredXtermHeadless) return xtermHeadless;
	hasRequiredXtermHeadless = 1;
	(function (exports) {
		(()=>{var e={5639:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.CircularList=void 0;const i=s(7150),r=s(802);class n extends i.Disposable{constructor(e){super(),this._maxLength=e,this.onDeleteEmitter=this._register(new r.Emitter),this.onDelete=this.onDeleteEmitter.event,this.onInsertEmitter=this._register(new r.Emitter),this.onInsert=this.onInsertEmitter.event,this.onTrimEmitter=this._register(new r.Emitter),this.onTrim=this.onTrimEmitter.event,this._array=new Array(this._maxLength),this._startIndex=0,this._length=0;}get maxLength(){return this._maxLength}set maxLength(e){if(this._maxLength===e)return;const t=new Array(e);for(let s=0;s<Math.min(e,this.length);s++)t[s]=this._array[this._getCyclicIndex(s)];this._array=t,this._maxLength=e,this._startIndex=0;}get length(){return this._length}set length(e){if(e>this._length)for(let t=this._length;t<e;t++)this._array[t]=void 0;this._length=e;}get(e){return this._array[this._getCyclicIndex(e)]}set(e,t){this._array[this._getCyclicIndex(e)]=t;}push(e){this._array[this._getCyclicIndex(this._length)]=e,this._length===this._maxLength?(this._startIndex=++this._startIndex%this._maxLength,this.onTrimEmitter.fire(1)):this._length++;}recycle(){if(this._length!==this._maxLength)throw new Error("Can only recycle when the buffer is full");return this._startIndex=++this._startIndex%this._maxLength,this.onTrimEmitter.fire(1),this._array[this._getCyclicIndex(this._length-1)]}get isFull(){return this._length===this._maxLength}pop(){return this._array[this._getCyclicIndex(this._length---1)]}splice(e,t,...s){if(t){for(let s=e;s<this._length-t;s++)this._array[this._getCyclicIndex(s)]=this._array[this._getCyclicIndex(s+t)];this._length-=t,this.onDeleteEmitter.fire({index:e,amount:t});}for(let t=this._length-1;t>=e;t--)this._array[this._getCyclicIndex(t+s.length)]=this._array[this._getCyclicIndex(t)];for(let t=0;t<s.length;t++)this._array[this._getCyclicIndex(e+t)]=s[t];if(s.length&&this.onInsertEmitter.fire({index:e,amount:s.length}),this._length+s.length>this._maxLength){const e=this._length+s.length-this._maxLength;this._startIndex+=e,this._length=this._maxLength,this.onTrimEmitter.fire(e);}else this._length+=s.length;}trimStart(e){e>this._length&&(e=this._length),this._startIndex+=e,this._length-=e,this.onTrimEmitter.fire(e);}shiftElements(e,t,s){if(!(t<=0)){if(e<0||e>=this._length)throw new Error("start argument out of range");if(e+s<0)throw new Error("Cannot shift elements in list beyond index 0");if(s>0){for(let i=t-1;i>=0;i--)this.set(e+i+s,this.get(e+i));const i=e+t+s-this._length;if(i>0)for(this._length+=i;this._length>this._maxLength;)this._length--,this._startIndex++,this.onTrimEmitter.fire(1);}else for(let i=0;i<t;i++)this.set(e+i+s,this.get(e+i));}}_getCyclicIndex(e){return (this._startIndex+e)%this._maxLength}}t.CircularList=n;},7453:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.clone=function e(t,s=5){if("object"!=typeof t)return t;const i=Array.isArray(t)?[]:{};for(const r in t)i[r]=s<=1?t[r]:t[r]&&e(t[r],s-1);return i};},5777:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.CoreTerminal=void 0;const i=s(6501),r=s(6025),n=s(7276),o=s(9640),a=s(56),h=s(4071),c=s(7792),l=s(6415),u=s(5746),d=s(5882),f=s(2486),_=s(3562),p=s(8811),g=s(802),v=s(7150);let m=false;class b extends v.Disposable{get onScroll(){return this._onScrollApi||(this._onScrollApi=this._register(new g.Emitter),this._onScroll.event((e=>{this._onScrollApi?.fire(e.position);}))),this._onScrollApi.event}get cols(){return this._bufferService.cols}get rows(){return this._bufferService.rows}get buffers(){return this._bufferService.buffers}get options(){return this.optionsService.options}set options(e){for(const t in e)this.optionsService.options[t]=e[t];}constructor(e){super(),this._windowsWrappingHeuristics=this._register(new v.MutableDisposable),this._onBinary=this._register(new g.Emitter),this.onBinary=this._onBinary.event,this._onData=this._register(new g.Emitter),this.onData=this._onData.event,this._onLineFeed=this._register(new g.Emitter),this.onLineFeed=this._onLineFeed.event,this._onResize=this._register(new g.Emitter),this.onResize=this._onResize.event,this._onWriteParsed=this._register(new g.Emitter),this.onWriteParsed=this._onWriteParsed.event,this._onScroll=this._register(new g.Emitter),this._instantiationService=new r.InstantiationService,this.optionsService=this._register(new a.OptionsService(e)),this._instantiationService.setService(i.IOptionsService,this.optionsService),this._bufferService=this._register(this._instantiationService.createInstance(o.BufferService)),this._instantiationService.setService(i.IBufferService,this._bufferService),this._logService=this._register(this._instantiationService.createInstance(n.LogService)),this._instantiationService.setService(i.ILogService,this._logService),this.coreService=this._register(this._instantiationService.createInstance(h.CoreService)),this._instantiationService.setService(i.ICoreService,this.coreService),this.coreMouseService=this._register(this._instantiationService.createInstance(c.CoreMouseService)),this._instantiationService.setService(i.ICoreMouseService,this.coreMouseService),this.unicodeService=this._register(this._instantiationService.createInstance(l.UnicodeService)),this._instantiationService.setService(i.IUnicodeService,this.unicodeService),this._charsetService=this._instantiationService.createInstance(u.CharsetService),this._instantiationService.setService(i.ICharsetService,this._charsetService),this._oscLinkService=this._instantiationService.createInstance(p.OscLinkService),this._instantiationService.setService(i.IOscLinkService,this._oscLinkService),this._inputHandler=this._register(new f.InputHandler(this._bufferService,this._charsetService,this.coreService,this._logService,this.optionsService,this._oscLinkService,this.coreMouseService,this.unicodeService)),this._register(g.Event.forward(this._inputHandler.onLineFeed,this._onLineFeed)),this._register(this._inputHandler),this._register(g.Event.forward(this._bufferService.onResize,this._onResize)),this._register(g.Event.forward(this.coreService.onData,this._onData)),this._register(g.Event.forward(this.coreService.onBinary,this._onBinary)),this._register(this.coreService.onRequestScrollToBottom((()=>this.scrollToBottom(true)))),this._register(this.coreService.onUserInput((()=>this._writeBuffer.handleUserInput()))),this._register(this.optionsService.onMultipleOptionChange(["windowsMode","windowsPty"],(()=>this._handleWindowsPtyOptionChange()))),this._register(this._bufferService.onScroll((()=>{this._onScroll.fire({position:this._bufferService.buffer.ydisp}),this._inputHandler.markRangeDirty(this._bufferService.buffer.scrollTop,this._bufferService.buffer.scrollBottom);}))),this._writeBuffer=this._register(new _.WriteBuffer(((e,t)=>this._inputHandler.parse(e,t)))),this._register(g.Event.forward(this._writeBuffer.onWriteParsed,this._onWriteParsed));}write(e,t){this._writeBuffer.write(e,t);}writeSync(e,t){this._logService.logLevel<=i.LogLevelEnum.WARN&&!m&&(this._logService.warn("writeSync is unreliable and will be removed soon."),m=true),this._writeBuffer.writeSync(e,t);}input(e,t=true){this.coreService.triggerDataEvent(e,t);}resize(e,t){isNaN(e)||isNaN(t)||(e=Math.max(e,o.MINIMUM_COLS),t=Math.max(t,o.MINIMUM_ROWS),this._bufferService.resize(e,t));}scroll(e,t=false){this._bufferService.scroll(e,t);}scrollLines(e,t){this._bufferService.scrollLines(e,t);}scrollPages(e){this.scrollLines(e*(this.rows-1));}scrollToTop(){this.scrollLines(-this._bufferService.buffer.ydisp);}scrollToBottom(e){this.scrollLines(this._bufferService.buffer.ybase-this._bufferService.buffer.ydisp);}scrollToLine(e){const t=e-this._bufferService.buffer.ydisp;0!==t&&this.scrollLines(t);}registerEscHandler(e,t){return this._inputHandler.registerEscHandler(e,t)}registerDcsHandler(e,t){return this._inputHandler.registerDcsHandler(e,t)}registerCsiHandler(e,t){return this._inputHandler.registerCsiHandler(e,t)}registerOscHandler(e,t){return this._inputHandler.registerOscHandler(e,t)}_setup(){this._handleWindowsPtyOptionChange();}reset(){this._inputHandler.reset(),this._bufferService.reset(),this._charsetService.reset(),this.coreService.reset(),this.coreMouseService.reset();}_handleWindowsPtyOptionChange(){let e=false;const t=this.optionsService.rawOptions.windowsPty;t&&void 0!==t.buildNumber&&void 0!==t.buildNumber?e=!!("conpty"===t.backend&&t.buildNumber<21376):this.optionsService.rawOptions.windowsMode&&(e=true),e?this._enableWindowsWrappingHeuristics():this._windowsWrappingHeuristics.clear();}_enableWindowsWrappingHeuristics(){if(!this._windowsWrappingHeuristics.value){const e=[];e.push(this.onLineFeed(d.updateWindowsModeWrappedState.bind(null,this._bufferService))),e.push(this.registerCsiHandler({final:"H"},(()=>((0, d.updateWindowsModeWrappedState)(this._bufferService),false)))),this._windowsWrappingHeuristics.value=(0, v.toDisposable)((()=>{for(const t of e)t.dispose();}));}}}t.CoreTerminal=b;},2486:function(e,t,s){var i=this&&this.__decorate||function(e,t,s,i){var r,n=arguments.length,o=n<3?t:null===i?i=Object.getOwnPropertyDescriptor(t,s):i;if("object"==typeof Reflect&&"function"==typeof Reflect.decorate)o=Reflect.decorate(e,t,s,i);else for(var a=e.length-1;a>=0;a--)(r=e[a])&&(o=(n<3?r(o):n>3?r(t,s,o):r(t,s))||o);return n>3&&o&&Object.defineProperty(t,s,o),o},r=this&&this.__param||function(e,t){return function(s,i){t(s,i,e);}};Object.defineProperty(t,"__esModule",{value:true}),t.InputHandler=t.WindowsOptionsReportType=void 0,t.isValidColorIndex=k;const n=s(3534),o=s(6760),a=s(6717),h=s(7150),c=s(726),l=s(6107),u=s(8938),d=s(3055),f=s(5451),_=s(6501),p=s(6415),g=s(1346),v=s(9823),m=s(8693),b=s(802),S={"(":0,")":1,"*":2,"+":3,"-":1,".":2},y=131072;function C(e,t){if(e>24)return t.setWinLines||false;switch(e){case 1:return !!t.restoreWin;case 2:return !!t.minimizeWin;case 3:return !!t.setWinPosition;case 4:return !!t.setWinSizePixels;case 5:return !!t.raiseWin;case 6:return !!t.lowerWin;case 7:return !!t.refreshWin;case 8:return !!t.setWinSizeChars;case 9:return !!t.maximizeWin;case 10:return !!t.fullscreenWin;case 11:return !!t.getWinState;case 13:return !!t.getWinPosition;case 14:return !!t.getWinSizePixels;case 15:return !!t.getScreenSizePixels;case 16:return !!t.getCellSizePixels;case 18:return !!t.getWinSizeChars;case 19:return !!t.getScreenSizeChars;case 20:return !!t.getIconTitle;case 21:return !!t.getWinTitle;case 22:return !!t.pushTitle;case 23:return !!t.popTitle;case 24:return !!t.setWinLines}return  false}var w;!function(e){e[e.GET_WIN_SIZE_PIXELS=0]="GET_WIN_SIZE_PIXELS",e[e.GET_CELL_SIZE_PIXELS=1]="GET_CELL_SIZE_PIXELS";}(w||(t.WindowsOptionsReportType=w={}));let E=0;class A extends h.Disposable{getAttrData(){return this._curAttrData}constructor(e,t,s,i,r,h,u,d,f=new a.EscapeSequenceParser){super(),this._bufferService=e,this._charsetService=t,this._coreService=s,this._logService=i,this._optionsService=r,this._oscLinkService=h,this._coreMouseService=u,this._unicodeService=d,this._parser=f,this._parseBuffer=new Uint32Array(4096),this._stringDecoder=new c.StringToUtf32,this._utf8Decoder=new c.Utf8ToUtf32,this._windowTitle="",this._iconName="",this._windowTitleStack=[],this._iconNameStack=[],this._curAttrData=l.DEFAULT_ATTR_DATA.clone(),this._eraseAttrDataInternal=l.DEFAULT_ATTR_DATA.clone(),this._onRequestBell=this._register(new b.Emitter),this.onRequestBell=this._onRequestBell.event,this._onRequestRefreshRows=this._register(new b.Emitter),this.onRequestRefreshRows=this._onRequestRefreshRows.event,this._onRequestReset=this._register(new b.Emitter),this.onRequestReset=this._onRequestReset.event,this._onRequestSendFocus=this._register(new b.Emitter),this.onRequestSendFocus=this._onRequestSendFocus.event,this._onRequestSyncScrollBar=this._register(new b.Emitter),this.onRequestSyncScrollBar=this._onRequestSyncScrollBar.event,this._onRequestWindowsOptionsReport=this._register(new b.Emitter),this.onRequestWindowsOptionsReport=this._onRequestWindowsOptionsReport.event,this._onA11yChar=this._register(new b.Emitter),this.onA11yChar=this._onA11yChar.event,this._onA11yTab=this._register(new b.Emitter),this.onA11yTab=this._onA11yTab.event,this._onCursorMove=this._register(new b.Emitter),this.onCursorMove=this._onCursorMove.event,this._onLineFeed=this._register(new b.Emitter),this.onLineFeed=this._onLineFeed.event,this._onScroll=this._register(new b.Emitter),this.onScroll=this._onScroll.event,this._onTitleChange=this._register(new b.Emitter),this.onTitleChange=this._onTitleChange.event,this._onColor=this._register(new b.Emitter),this.onColor=this._onColor.event,this._parseStack={paused:false,cursorStartX:0,cursorStartY:0,decodedLength:0,position:0},this._specialColors=[256,257,258],this._register(this._parser),this._dirtyRowTracker=new L(this._bufferService),this._activeBuffer=this._bufferService.buffer,this._register(this._bufferService.buffers.onBufferActivate((e=>this._activeBuffer=e.activeBuffer))),this._parser.setCsiHandlerFallback(((e,t)=>{this._logService.debug("Unknown CSI code: ",{identifier:this._parser.identToString(e),params:t.toArray()});})),this._parser.setEscHandlerFallback((e=>{this._logService.debug("Unknown ESC code: ",{identifier:this._parser.identToString(e)});})),this._parser.setExecuteHandlerFallback((e=>{this._logService.debug("Unknown EXECUTE code: ",{code:e});})),this._parser.setOscHandlerFallback(((e,t,s)=>{this._logService.debug("Unknown OSC code: ",{identifier:e,action:t,data:s});})),this._parser.setDcsHandlerFallback(((e,t,s)=>{"HOOK"===t&&(s=s.toArray()),this._logService.debug("Unknown DCS code: ",{identifier:this._parser.identToString(e),action:t,payload:s});})),this._parser.setPrintHandler(((e,t,s)=>this.print(e,t,s))),this._parser.registerCsiHandler({final:"@"},(e=>this.insertChars(e))),this._parser.registerCsiHandler({intermediates:" ",final:"@"},(e=>this.scrollLeft(e))),this._parser.registerCsiHandler({final:"A"},(e=>this.cursorUp(e))),this._parser.registerCsiHandler({intermediates:" ",final:"A"},(e=>this.scrollRight(e))),this._parser.registerCsiHandler({final:"B"},(e=>this.cursorDown(e))),this._parser.registerCsiHandler({final:"C"},(e=>this.cursorForward(e))),this._parser.registerCsiHandler({final:"D"},(e=>this.cursorBackward(e))),this._parser.registerCsiHandler({final:"E"},(e=>this.cursorNextLine(e))),this._parser.registerCsiHandler({final:"F"},(e=>this.cursorPrecedingLine(e))),this._parser.registerCsiHandler({final:"G"},(e=>this.cursorCharAbsolute(e))),this._parser.registerCsiHandler({final:"H"},(e=>this.cursorPosition(e))),this._parser.registerCsiHandler({final:"I"},(e=>this.cursorForwardTab(e))),this._parser.registerCsiHandler({final:"J"},(e=>this.eraseInDisplay(e,false))),this._parser.registerCsiHandler({prefix:"?",final:"J"},(e=>this.eraseInDisplay(e,true))),this._parser.registerCsiHandler({final:"K"},(e=>this.eraseInLine(e,false))),this._parser.registerCsiHandler({prefix:"?",final:"K"},(e=>this.eraseInLine(e,true))),this._parser.registerCsiHandler({final:"L"},(e=>this.insertLines(e))),this._parser.registerCsiHandler({final:"M"},(e=>this.deleteLines(e))),this._parser.registerCsiHandler({final:"P"},(e=>this.deleteChars(e))),this._parser.registerCsiHandler({final:"S"},(e=>this.scrollUp(e))),this._parser.registerCsiHandler({final:"T"},(e=>this.scrollDown(e))),this._parser.registerCsiHandler({final:"X"},(e=>this.eraseChars(e))),this._parser.registerCsiHandler({final:"Z"},(e=>this.cursorBackwardTab(e))),this._parser.registerCsiHandler({final:"`"},(e=>this.charPosAbsolute(e))),this._parser.registerCsiHandler({final:"a"},(e=>this.hPositionRelative(e))),this._parser.registerCsiHandler({final:"b"},(e=>this.repeatPrecedingCharacter(e))),this._parser.registerCsiHandler({final:"c"},(e=>this.sendDeviceAttributesPrimary(e))),this._parser.registerCsiHandler({prefix:">",final:"c"},(e=>this.sendDeviceAttributesSecondary(e))),this._parser.registerCsiHandler({final:"d"},(e=>this.linePosAbsolute(e))),this._parser.registerCsiHandler({final:"e"},(e=>this.vPositionRelative(e))),this._parser.registerCsiHandler({final:"f"},(e=>this.hVPosition(e))),this._parser.registerCsiHandler({final:"g"},(e=>this.tabClear(e))),this._parser.registerCsiHandler({final:"h"},(e=>this.setMode(e))),this._parser.registerCsiHandler({prefix:"?",final:"h"},(e=>this.setModePrivate(e))),this._parser.registerCsiHandler({final:"l"},(e=>this.resetMode(e))),this._parser.registerCsiHandler({prefix:"?",final:"l"},(e=>this.resetModePrivate(e))),this._parser.registerCsiHandler({final:"m"},(e=>this.charAttributes(e))),this._parser.registerCsiHandler({final:"n"},(e=>this.deviceStatus(e))),this._parser.registerCsiHandler({prefix:"?",final:"n"},(e=>this.deviceStatusPrivate(e))),this._parser.registerCsiHandler({intermediates:"!",final:"p"},(e=>this.softReset(e))),this._parser.registerCsiHandler({intermediates:" ",final:"q"},(e=>this.setCursorStyle(e))),this._parser.registerCsiHandler({final:"r"},(e=>this.setScrollRegion(e))),this._parser.registerCsiHandler({final:"s"},(e=>this.saveCursor(e))),this._parser.registerCsiHandler({final:"t"},(e=>this.windowOptions(e))),this._parser.registerCsiHandler({final:"u"},(e=>this.restoreCursor(e))),this._parser.registerCsiHandler({intermediates:"'",final:"}"},(e=>this.insertColumns(e))),this._parser.registerCsiHandler({intermediates:"'",final:"~"},(e=>this.deleteColumns(e))),this._parser.registerCsiHandler({intermediates:'"',final:"q"},(e=>this.selectProtected(e))),this._parser.registerCsiHandler({intermediates:"$",final:"p"},(e=>this.requestMode(e,true))),this._parser.registerCsiHandler({prefix:"?",intermediates:"$",final:"p"},(e=>this.requestMode(e,false))),this._parser.setExecuteHandler(n.C0.BEL,(()=>this.bell())),this._parser.setExecuteHandler(n.C0.LF,(()=>this.lineFeed())),this._parser.setExecuteHandler(n.C0.VT,(()=>this.lineFeed())),this._parser.setExecuteHandler(n.C0.FF,(()=>this.lineFeed())),this._parser.setExecuteHandler(n.C0.CR,(()=>this.carriageReturn())),this._parser.setExecuteHandler(n.C0.BS,(()=>this.backspace())),this._parser.setExecuteHandler(n.C0.HT,(()=>this.tab())),this._parser.setExecuteHandler(n.C0.SO,(()=>this.shiftOut())),this._parser.setExecuteHandler(n.C0.SI,(()=>this.shiftIn())),this._parser.setExecuteHandler(n.C1.IND,(()=>this.index())),this._parser.setExecuteHandler(n.C1.NEL,(()=>this.nextLine())),this._parser.setExecuteHandler(n.C1.HTS,(()=>this.tabSet())),this._parser.registerOscHandler(0,new g.OscHandler((e=>(this.setTitle(e),this.setIconName(e),true)))),this._parser.registerOscHandler(1,new g.OscHandler((e=>this.setIconName(e)))),this._parser.registerOscHandler(2,new g.OscHandler((e=>this.setTitle(e)))),this._parser.registerOscHandler(4,new g.OscHandler((e=>this.setOrReportIndexedColor(e)))),this._parser.registerOscHandler(8,new g.OscHandler((e=>this.setHyperlink(e)))),this._parser.registerOscHandler(10,new g.OscHandler((e=>this.setOrReportFgColor(e)))),this._parser.registerOscHandler(11,new g.OscHandler((e=>this.setOrReportBgColor(e)))),this._parser.registerOscHandler(12,new g.OscHandler((e=>this.setOrReportCursorColor(e)))),this._parser.registerOscHandler(104,new g.OscHandler((e=>this.restoreIndexedColor(e)))),this._parser.registerOscHandler(110,new g.OscHandler((e=>this.restoreFgColor(e)))),this._parser.registerOscHandler(111,new g.OscHandler((e=>this.restoreBgColor(e)))),this._parser.registerOscHandler(112,new g.OscHandler((e=>this.restoreCursorColor(e)))),this._parser.registerEscHandler({final:"7"},(()=>this.saveCursor())),this._parser.registerEscHandler({final:"8"},(()=>this.restoreCursor())),this._parser.registerEscHandler({final:"D"},(()=>this.index())),this._parser.registerEscHandler({final:"E"},(()=>this.nextLine())),this._parser.registerEscHandler({final:"H"},(()=>this.tabSet())),this._parser.registerEscHandler({final:"M"},(()=>this.reverseIndex())),this._parser.registerEscHandler({final:"="},(()=>this.keypadApplicationMode())),this._parser.registerEscHandler({final:">"},(()=>this.keypadNumericMode())),this._parser.registerEscHandler({final:"c"},(()=>this.fullReset())),this._parser.registerEscHandler({final:"n"},(()=>this.setgLevel(2))),this._parser.registerEscHandler({final:"o"},(()=>this.setgLevel(3))),this._parser.registerEscHandler({final:"|"},(()=>this.setgLevel(3))),this._parser.registerEscHandler({final:"}"},(()=>this.setgLevel(2))),this._parser.registerEscHandler({final:"~"},(()=>this.setgLevel(1))),this._parser.registerEscHandler({intermediates:"%",final:"@"},(()=>this.selectDefaultCharset())),this._parser.registerEscHandler({intermediates:"%",final:"G"},(()=>this.selectDefaultCharset()));for(const e in o.CHARSETS)this._parser.registerEscHandler({intermediates:"(",final:e},(()=>this.selectCharset("("+e))),this._parser.registerEscHandler({intermediates:")",final:e},(()=>this.selectCharset(")"+e))),this._parser.registerEscHandler({intermediates:"*",final:e},(()=>this.selectCharset("*"+e))),this._parser.registerEscHandler({intermediates:"+",final:e},(()=>this.selectCharset("+"+e))),this._parser.registerEscHandler({intermediates:"-",final:e},(()=>this.selectCharset("-"+e))),this._parser.registerEscHandler({intermediates:".",final:e},(()=>this.selectCharset("."+e))),this._parser.registerEscHandler({intermediates:"/",final:e},(()=>this.selectCharset("/"+e)));this._parser.registerEscHandler({intermediates:"#",final:"8"},(()=>this.screenAlignmentPattern())),this._parser.setErrorHandler((e=>(this._logService.error("Parsing error: ",e),e))),this._parser.registerDcsHandler({intermediates:"$",final:"q"},new v.DcsHandler(((e,t)=>this.requestStatusString(e,t))));}_preserveStack(e,t,s,i){this._parseStack.paused=true,this._parseStack.cursorStartX=e,this._parseStack.cursorStartY=t,this._parseStack.decodedLength=s,this._parseStack.position=i;}_logSlowResolvingAsync(e){this._logService.logLevel<=_.LogLevelEnum.WARN&&Promise.race([e,new Promise(((e,t)=>setTimeout((()=>t("#SLOW_TIMEOUT")),5e3)))]).catch((e=>{if("#SLOW_TIMEOUT"!==e)throw e;console.warn("async parser handler taking longer than 5000 ms");}));}_getCurrentLinkId(){return this._curAttrData.extended.urlId}parse(e,t){let s,i=this._activeBuffer.x,r=this._activeBuffer.y,n=0;const o=this._parseStack.paused;if(o){if(s=this._parser.parse(this._parseBuffer,this._parseStack.decodedLength,t))return this._logSlowResolvingAsync(s),s;i=this._parseStack.cursorStartX,r=this._parseStack.cursorStartY,this._parseStack.paused=false,e.length>y&&(n=this._parseStack.position+y);}if(this._logService.logLevel<=_.LogLevelEnum.DEBUG&&this._logService.debug("parsing data "+("string"==typeof e?` "${e}"`:` "${Array.prototype.map.call(e,(e=>String.fromCharCode(e))).join("")}"`)),this._logService.logLevel===_.LogLevelEnum.TRACE&&this._logService.trace("parsing data (codes)","string"==typeof e?e.split("").map((e=>e.charCodeAt(0))):e),this._parseBuffer.length<e.length&&this._parseBuffer.length<y&&(this._parseBuffer=new Uint32Array(Math.min(e.length,y))),o||this._dirtyRowTracker.clearRange(),e.length>y)for(let t=n;t<e.length;t+=y){const n=t+y<e.length?t+y:e.length,o="string"==typeof e?this._stringDecoder.decode(e.substring(t,n),this._parseBuffer):this._utf8Decoder.decode(e.subarray(t,n),this._parseBuffer);if(s=this._parser.parse(this._parseBuffer,o))return this._preserveStack(i,r,o,t),this._logSlowResolvingAsync(s),s}else if(!o){const t="string"==typeof e?this._stringDecoder.decode(e,this._parseBuffer):this._utf8Decoder.decode(e,this._parseBuffer);if(s=this._parser.parse(this._parseBuffer,t))return this._preserveStack(i,r,t,0),this._logSlowResolvingAsync(s),s}this._activeBuffer.x===i&&this._activeBuffer.y===r||this._onCursorMove.fire();const a=this._dirtyRowTracker.end+(this._bufferService.buffer.ybase-this._bufferService.buffer.ydisp),h=this._dirtyRowTracker.start+(this._bufferService.buffer.ybase-this._bufferService.buffer.ydisp);h<this._bufferService.rows&&this._onRequestRefreshRows.fire({start:Math.min(h,this._bufferService.rows-1),end:Math.min(a,this._bufferService.rows-1)});}print(e,t,s){let i,r;const n=this._charsetService.charset,o=this._optionsService.rawOptions.screenReaderMode,a=this._bufferService.cols,h=this._coreService.decPrivateModes.wraparound,d=this._coreService.modes.insertMode,f=this._curAttrData;let _=this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y);this._dirtyRowTracker.markDirty(this._activeBuffer.y),this._activeBuffer.x&&s-t>0&&2===_.getWidth(this._activeBuffer.x-1)&&_.setCellFromCodepoint(this._activeBuffer.x-1,0,1,f);let g=this._parser.precedingJoinState;for(let v=t;v<s;++v){if(i=e[v],i<127&&n){const e=n[String.fromCharCode(i)];e&&(i=e.charCodeAt(0));}const t=this._unicodeService.charProperties(i,g);r=p.UnicodeService.extractWidth(t);const s=p.UnicodeService.extractShouldJoin(t),m=s?p.UnicodeService.extractWidth(g):0;if(g=t,o&&this._onA11yChar.fire((0, c.stringFromCodePoint)(i)),this._getCurrentLinkId()&&this._oscLinkService.addLineToLink(this._getCurrentLinkId(),this._activeBuffer.ybase+this._activeBuffer.y),this._activeBuffer.x+r-m>a)if(h){const e=_;let t=this._activeBuffer.x-m;for(this._activeBuffer.x=m,this._activeBuffer.y++,this._activeBuffer.y===this._activeBuffer.scrollBottom+1?(this._activeBuffer.y--,this._bufferService.scroll(this._eraseAttrData(),true)):(this._activeBuffer.y>=this._bufferService.rows&&(this._activeBuffer.y=this._bufferService.rows-1),this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y).isWrapped=true),_=this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y),m>0&&_ instanceof l.BufferLine&&_.copyCellsFrom(e,t,0,m,false);t<a;)e.setCellFromCodepoint(t++,0,1,f);}else if(this._activeBuffer.x=a-1,2===r)continue;if(s&&this._activeBuffer.x){const e=_.getWidth(this._activeBuffer.x-1)?1:2;_.addCodepointToCell(this._activeBuffer.x-e,i,r);for(let e=r-m;--e>=0;)_.setCellFromCodepoint(this._activeBuffer.x++,0,0,f);}else if(d&&(_.insertCells(this._activeBuffer.x,r-m,this._activeBuffer.getNullCell(f)),2===_.getWidth(a-1)&&_.setCellFromCodepoint(a-1,u.NULL_CELL_CODE,u.NULL_CELL_WIDTH,f)),_.setCellFromCodepoint(this._activeBuffer.x++,i,r,f),r>0)for(;--r;)_.setCellFromCodepoint(this._activeBuffer.x++,0,0,f);}this._parser.precedingJoinState=g,this._activeBuffer.x<a&&s-t>0&&0===_.getWidth(this._activeBuffer.x)&&!_.hasContent(this._activeBuffer.x)&&_.setCellFromCodepoint(this._activeBuffer.x,0,1,f),this._dirtyRowTracker.markDirty(this._activeBuffer.y);}registerCsiHandler(e,t){return "t"!==e.final||e.prefix||e.intermediates?this._parser.registerCsiHandler(e,t):this._parser.registerCsiHandler(e,(e=>!C(e.params[0],this._optionsService.rawOptions.windowOptions)||t(e)))}registerDcsHandler(e,t){return this._parser.registerDcsHandler(e,new v.DcsHandler(t))}registerEscHandler(e,t){return this._parser.registerEscHandler(e,t)}registerOscHandler(e,t){return this._parser.registerOscHandler(e,new g.OscHandler(t))}bell(){return this._onRequestBell.fire(),true}lineFeed(){return this._dirtyRowTracker.markDirty(this._activeBuffer.y),this._optionsService.rawOptions.convertEol&&(this._activeBuffer.x=0),this._activeBuffer.y++,this._activeBuffer.y===this._activeBuffer.scrollBottom+1?(this._activeBuffer.y--,this._bufferService.scroll(this._eraseAttrData())):this._activeBuffer.y>=this._bufferService.rows?this._activeBuffer.y=this._bufferService.rows-1:this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y).isWrapped=false,this._activeBuffer.x>=this._bufferService.cols&&this._activeBuffer.x--,this._dirtyRowTracker.markDirty(this._activeBuffer.y),this._onLineFeed.fire(),true}carriageReturn(){return this._activeBuffer.x=0,true}backspace(){if(!this._coreService.decPrivateModes.reverseWraparound)return this._restrictCursor(),this._activeBuffer.x>0&&this._activeBuffer.x--,true;if(this._restrictCursor(this._bufferService.cols),this._activeBuffer.x>0)this._activeBuffer.x--;else if(0===this._activeBuffer.x&&this._activeBuffer.y>this._activeBuffer.scrollTop&&this._activeBuffer.y<=this._activeBuffer.scrollBottom&&this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y)?.isWrapped){this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y).isWrapped=false,this._activeBuffer.y--,this._activeBuffer.x=this._bufferService.cols-1;const e=this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y);e.hasWidth(this._activeBuffer.x)&&!e.hasContent(this._activeBuffer.x)&&this._activeBuffer.x--;}return this._restrictCursor(),true}tab(){if(this._activeBuffer.x>=this._bufferService.cols)return  true;const e=this._activeBuffer.x;return this._activeBuffer.x=this._activeBuffer.nextStop(),this._optionsService.rawOptions.screenReaderMode&&this._onA11yTab.fire(this._activeBuffer.x-e),true}shiftOut(){return this._charsetService.setgLevel(1),true}shiftIn(){return this._charsetService.setgLevel(0),true}_restrictCursor(e=this._bufferService.cols-1){this._activeBuffer.x=Math.min(e,Math.max(0,this._activeBuffer.x)),this._activeBuffer.y=this._coreService.decPrivateModes.origin?Math.min(this._activeBuffer.scrollBottom,Math.max(this._activeBuffer.scrollTop,this._activeBuffer.y)):Math.min(this._bufferService.rows-1,Math.max(0,this._activeBuffer.y)),this._dirtyRowTracker.markDirty(this._activeBuffer.y);}_setCursor(e,t){this._dirtyRowTracker.markDirty(this._activeBuffer.y),this._coreService.decPrivateModes.origin?(this._activeBuffer.x=e,this._activeBuffer.y=this._activeBuffer.scrollTop+t):(this._activeBuffer.x=e,this._activeBuffer.y=t),this._restrictCursor(),this._dirtyRowTracker.markDirty(this._activeBuffer.y);}_moveCursor(e,t){this._restrictCursor(),this._setCursor(this._activeBuffer.x+e,this._activeBuffer.y+t);}cursorUp(e){const t=this._activeBuffer.y-this._activeBuffer.scrollTop;return t>=0?this._moveCursor(0,-Math.min(t,e.params[0]||1)):this._moveCursor(0,-(e.params[0]||1)),true}cursorDown(e){const t=this._activeBuffer.scrollBottom-this._activeBuffer.y;return t>=0?this._moveCursor(0,Math.min(t,e.params[0]||1)):this._moveCursor(0,e.params[0]||1),true}cursorForward(e){return this._moveCursor(e.params[0]||1,0),true}cursorBackward(e){return this._moveCursor(-(e.params[0]||1),0),true}cursorNextLine(e){return this.cursorDown(e),this._activeBuffer.x=0,true}cursorPrecedingLine(e){return this.cursorUp(e),this._activeBuffer.x=0,true}cursorCharAbsolute(e){return this._setCursor((e.params[0]||1)-1,this._activeBuffer.y),true}cursorPosition(e){return this._setCursor(e.length>=2?(e.params[1]||1)-1:0,(e.params[0]||1)-1),true}charPosAbsolute(e){return this._setCursor((e.params[0]||1)-1,this._activeBuffer.y),true}hPositionRelative(e){return this._moveCursor(e.params[0]||1,0),true}linePosAbsolute(e){return this._setCursor(this._activeBuffer.x,(e.params[0]||1)-1),true}vPositionRelative(e){return this._moveCursor(0,e.params[0]||1),true}hVPosition(e){return this.cursorPosition(e),true}tabClear(e){const t=e.params[0];return 0===t?delete this._activeBuffer.tabs[this._activeBuffer.x]:3===t&&(this._activeBuffer.tabs={}),true}cursorForwardTab(e){if(this._activeBuffer.x>=this._bufferService.cols)return  true;let t=e.params[0]||1;for(;t--;)this._activeBuffer.x=this._activeBuffer.nextStop();return  true}cursorBackwardTab(e){if(this._activeBuffer.x>=this._bufferService.cols)return  true;let t=e.params[0]||1;for(;t--;)this._activeBuffer.x=this._activeBuffer.prevStop();return  true}selectProtected(e){const t=e.params[0];return 1===t&&(this._curAttrData.bg|=536870912),2!==t&&0!==t||(this._curAttrData.bg&=-536870913),true}_eraseInBufferLine(e,t,s,i=false,r=false){const n=this._activeBuffer.lines.get(this._activeBuffer.ybase+e);n.replaceCells(t,s,this._activeBuffer.getNullCell(this._eraseAttrData()),r),i&&(n.isWrapped=false);}_resetBufferLine(e,t=false){const s=this._activeBuffer.lines.get(this._activeBuffer.ybase+e);s&&(s.fill(this._activeBuffer.getNullCell(this._eraseAttrData()),t),this._bufferService.buffer.clearMarkers(this._activeBuffer.ybase+e),s.isWrapped=false);}eraseInDisplay(e,t=false){let s;switch(this._restrictCursor(this._bufferService.cols),e.params[0]){case 0:for(s=this._activeBuffer.y,this._dirtyRowTracker.markDirty(s),this._eraseInBufferLine(s++,this._activeBuffer.x,this._bufferService.cols,0===this._activeBuffer.x,t);s<this._bufferService.rows;s++)this._resetBufferLine(s,t);this._dirtyRowTracker.markDirty(s);break;case 1:for(s=this._activeBuffer.y,this._dirtyRowTracker.markDirty(s),this._eraseInBufferLine(s,0,this._activeBuffer.x+1,true,t),this._activeBuffer.x+1>=this._bufferService.cols&&(this._activeBuffer.lines.get(s+1).isWrapped=false);s--;)this._resetBufferLine(s,t);this._dirtyRowTracker.markDirty(0);break;case 2:if(this._optionsService.rawOptions.scrollOnEraseInDisplay){for(s=this._bufferService.rows,this._dirtyRowTracker.markRangeDirty(0,s-1);s--;){const e=this._activeBuffer.lines.get(this._activeBuffer.ybase+s);if(e?.getTrimmedLength())break}for(;s>=0;s--)this._bufferService.scroll(this._eraseAttrData());}else {for(s=this._bufferService.rows,this._dirtyRowTracker.markDirty(s-1);s--;)this._resetBufferLine(s,t);this._dirtyRowTracker.markDirty(0);}break;case 3:const e=this._activeBuffer.lines.length-this._bufferService.rows;e>0&&(this._activeBuffer.lines.trimStart(e),this._activeBuffer.ybase=Math.max(this._activeBuffer.ybase-e,0),this._activeBuffer.ydisp=Math.max(this._activeBuffer.ydisp-e,0),this._onScroll.fire(0));}return  true}eraseInLine(e,t=false){switch(this._restrictCursor(this._bufferService.cols),e.params[0]){case 0:this._eraseInBufferLine(this._activeBuffer.y,this._activeBuffer.x,this._bufferService.cols,0===this._activeBuffer.x,t);break;case 1:this._eraseInBufferLine(this._activeBuffer.y,0,this._activeBuffer.x+1,false,t);break;case 2:this._eraseInBufferLine(this._activeBuffer.y,0,this._bufferService.cols,true,t);}return this._dirtyRowTracker.markDirty(this._activeBuffer.y),true}insertLines(e){this._restrictCursor();let t=e.params[0]||1;if(this._activeBuffer.y>this._activeBuffer.scrollBottom||this._activeBuffer.y<this._activeBuffer.scrollTop)return  true;const s=this._activeBuffer.ybase+this._activeBuffer.y,i=this._bufferService.rows-1-this._activeBuffer.scrollBottom,r=this._bufferService.rows-1+this._activeBuffer.ybase-i+1;for(;t--;)this._activeBuffer.lines.splice(r-1,1),this._activeBuffer.lines.splice(s,0,this._activeBuffer.getBlankLine(this._eraseAttrData()));return this._dirtyRowTracker.markRangeDirty(this._activeBuffer.y,this._activeBuffer.scrollBottom),this._activeBuffer.x=0,true}deleteLines(e){this._restrictCursor();let t=e.params[0]||1;if(this._activeBuffer.y>this._activeBuffer.scrollBottom||this._activeBuffer.y<this._activeBuffer.scrollTop)return  true;const s=this._activeBuffer.ybase+this._activeBuffer.y;let i;for(i=this._bufferService.rows-1-this._activeBuffer.scrollBottom,i=this._bufferService.rows-1+this._activeBuffer.ybase-i;t--;)this._activeBuffer.lines.splice(s,1),this._activeBuffer.lines.splice(i,0,this._activeBuffer.getBlankLine(this._eraseAttrData()));return this._dirtyRowTracker.markRangeDirty(this._activeBuffer.y,this._activeBuffer.scrollBottom),this._activeBuffer.x=0,true}insertChars(e){this._restrictCursor();const t=this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y);return t&&(t.insertCells(this._activeBuffer.x,e.params[0]||1,this._activeBuffer.getNullCell(this._eraseAttrData())),this._dirtyRowTracker.markDirty(this._activeBuffer.y)),true}deleteChars(e){this._restrictCursor();const t=this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y);return t&&(t.deleteCells(this._activeBuffer.x,e.params[0]||1,this._activeBuffer.getNullCell(this._eraseAttrData())),this._dirtyRowTracker.markDirty(this._activeBuffer.y)),true}scrollUp(e){let t=e.params[0]||1;for(;t--;)this._activeBuffer.lines.splice(this._activeBuffer.ybase+this._activeBuffer.scrollTop,1),this._activeBuffer.lines.splice(this._activeBuffer.ybase+this._activeBuffer.scrollBottom,0,this._activeBuffer.getBlankLine(this._eraseAttrData()));return this._dirtyRowTracker.markRangeDirty(this._activeBuffer.scrollTop,this._activeBuffer.scrollBottom),true}scrollDown(e){let t=e.params[0]||1;for(;t--;)this._activeBuffer.lines.splice(this._activeBuffer.ybase+this._activeBuffer.scrollBottom,1),this._activeBuffer.lines.splice(this._activeBuffer.ybase+this._activeBuffer.scrollTop,0,this._activeBuffer.getBlankLine(l.DEFAULT_ATTR_DATA));return this._dirtyRowTracker.markRangeDirty(this._activeBuffer.scrollTop,this._activeBuffer.scrollBottom),true}scrollLeft(e){if(this._activeBuffer.y>this._activeBuffer.scrollBottom||this._activeBuffer.y<this._activeBuffer.scrollTop)return  true;const t=e.params[0]||1;for(let e=this._activeBuffer.scrollTop;e<=this._activeBuffer.scrollBottom;++e){const s=this._activeBuffer.lines.get(this._activeBuffer.ybase+e);s.deleteCells(0,t,this._activeBuffer.getNullCell(this._eraseAttrData())),s.isWrapped=false;}return this._dirtyRowTracker.markRangeDirty(this._activeBuffer.scrollTop,this._activeBuffer.scrollBottom),true}scrollRight(e){if(this._activeBuffer.y>this._activeBuffer.scrollBottom||this._activeBuffer.y<this._activeBuffer.scrollTop)return  true;const t=e.params[0]||1;for(let e=this._activeBuffer.scrollTop;e<=this._activeBuffer.scrollBottom;++e){const s=this._activeBuffer.lines.get(this._activeBuffer.ybase+e);s.insertCells(0,t,this._activeBuffer.getNullCell(this._eraseAttrData())),s.isWrapped=false;}return this._dirtyRowTracker.markRangeDirty(this._activeBuffer.scrollTop,this._activeBuffer.scrollBottom),true}insertColumns(e){if(this._activeBuffer.y>this._activeBuffer.scrollBottom||this._activeBuffer.y<this._activeBuffer.scrollTop)return  true;const t=e.params[0]||1;for(let e=this._activeBuffer.scrollTop;e<=this._activeBuffer.scrollBottom;++e){const s=this._activeBuffer.lines.get(this._activeBuffer.ybase+e);s.insertCells(this._activeBuffer.x,t,this._activeBuffer.getNullCell(this._eraseAttrData())),s.isWrapped=false;}return this._dirtyRowTracker.markRangeDirty(this._activeBuffer.scrollTop,this._activeBuffer.scrollBottom),true}deleteColumns(e){if(this._activeBuffer.y>this._activeBuffer.scrollBottom||this._activeBuffer.y<this._activeBuffer.scrollTop)return  true;const t=e.params[0]||1;for(let e=this._activeBuffer.scrollTop;e<=this._activeBuffer.scrollBottom;++e){const s=this._activeBuffer.lines.get(this._activeBuffer.ybase+e);s.deleteCells(this._activeBuffer.x,t,this._activeBuffer.getNullCell(this._eraseAttrData())),s.isWrapped=false;}return this._dirtyRowTracker.markRangeDirty(this._activeBuffer.scrollTop,this._activeBuffer.scrollBottom),true}eraseChars(e){this._restrictCursor();const t=this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y);return t&&(t.replaceCells(this._activeBuffer.x,this._activeBuffer.x+(e.params[0]||1),this._activeBuffer.getNullCell(this._eraseAttrData())),this._dirtyRowTracker.markDirty(this._activeBuffer.y)),true}repeatPrecedingCharacter(e){const t=this._parser.precedingJoinState;if(!t)return  true;const s=e.params[0]||1,i=p.UnicodeService.extractWidth(t),r=this._activeBuffer.x-i,n=this._activeBuffer.lines.get(this._activeBuffer.ybase+this._activeBuffer.y).getString(r),o=new Uint32Array(n.length*s);let a=0;for(let e=0;e<n.length;){const t=n.codePointAt(e)||0;o[a++]=t,e+=t>65535?2:1;}let h=a;for(let e=1;e<s;++e)o.copyWithin(h,0,a),h+=a;return this.print(o,0,h),true}sendDeviceAttributesPrimary(e){return e.params[0]>0||(this._is("xterm")||this._is("rxvt-unicode")||this._is("screen")?this._coreService.triggerDataEvent(n.C0.ESC+"[?1;2c"):this._is("linux")&&this._coreService.triggerDataEvent(n.C0.ESC+"[?6c")),true}sendDeviceAttributesSecondary(e){return e.params[0]>0||(this._is("xterm")?this._coreService.triggerDataEvent(n.C0.ESC+"[>0;276;0c"):this._is("rxvt-unicode")?this._coreService.triggerDataEvent(n.C0.ESC+"[>85;95;0c"):this._is("linux")?this._coreService.triggerDataEvent(e.params[0]+"c"):this._is("screen")&&this._coreService.triggerDataEvent(n.C0.ESC+"[>83;40003;0c")),true}_is(e){return 0===(this._optionsService.rawOptions.termName+"").indexOf(e)}setMode(e){for(let t=0;t<e.length;t++)switch(e.params[t]){case 4:this._coreService.modes.insertMode=true;break;case 20:this._optionsService.options.convertEol=true;}return  true}setModePrivate(e){for(let t=0;t<e.length;t++)switch(e.params[t]){case 1:this._coreService.decPrivateModes.applicationCursorKeys=true;break;case 2:this._charsetService.setgCharset(0,o.DEFAULT_CHARSET),this._charsetService.setgCharset(1,o.DEFAULT_CHARSET),this._charsetService.setgCharset(2,o.DEFAULT_CHARSET),this._charsetService.setgCharset(3,o.DEFAULT_CHARSET);break;case 3:this._optionsService.rawOptions.windowOptions.setWinLines&&(this._bufferService.resize(132,this._bufferService.rows),this._onRequestReset.fire());break;case 6:this._coreService.decPrivateModes.origin=true,this._setCursor(0,0);break;case 7:this._coreService.decPrivateModes.wraparound=true;break;case 12:this._optionsService.options.cursorBlink=true;break;case 45:this._coreService.decPrivateModes.reverseWraparound=true;break;case 66:this._logService.debug("Serial port requested application keypad."),this._coreService.decPrivateModes.applicationKeypad=true,this._onRequestSyncScrollBar.fire();break;case 9:this._coreMouseService.activeProtocol="X10";break;case 1e3:this._coreMouseService.activeProtocol="VT200";break;case 1002:this._coreMouseService.activeProtocol="DRAG";break;case 1003:this._coreMouseService.activeProtocol="ANY";break;case 1004:this._coreService.decPrivateModes.sendFocus=true,this._onRequestSendFocus.fire();break;case 1005:this._logService.debug("DECSET 1005 not supported (see #2507)");break;case 1006:this._coreMouseService.activeEncoding="SGR";break;case 1015:this._logService.debug("DECSET 1015 not supported (see #2507)");break;case 1016:this._coreMouseService.activeEncoding="SGR_PIXELS";break;case 25:this._coreService.isCursorHidden=false;break;case 1048:this.saveCursor();break;case 1049:this.saveCursor();case 47:case 1047:this._bufferService.buffers.activateAltBuffer(this._eraseAttrData()),this._coreService.isCursorInitialized=true,this._onRequestRefreshRows.fire(void 0),this._onRequestSyncScrollBar.fire();break;case 2004:this._coreService.decPrivateModes.bracketedPasteMode=true;break;case 2026:this._coreService.decPrivateModes.synchronizedOutput=true;}return  true}resetMode(e){for(let t=0;t<e.length;t++)switch(e.params[t]){case 4:this._coreService.modes.insertMode=false;break;case 20:this._optionsService.options.convertEol=false;}return  true}resetModePrivate(e){for(let t=0;t<e.length;t++)switch(e.params[t]){case 1:this._coreService.decPrivateModes.applicationCursorKeys=false;break;case 3:this._optionsService.rawOptions.windowOptions.setWinLines&&(this._bufferService.resize(80,this._bufferService.rows),this._onRequestReset.fire());break;case 6:this._coreService.decPrivateModes.origin=false,this._setCursor(0,0);break;case 7:this._coreService.decPrivateModes.wraparound=false;break;case 12:this._optionsService.options.cursorBlink=false;break;case 45:this._coreService.decPrivateModes.reverseWraparound=false;break;case 66:this._logService.debug("Switching back to normal keypad."),this._coreService.decPrivateModes.applicationKeypad=false,this._onRequestSyncScrollBar.fire();break;case 9:case 1e3:case 1002:case 1003:this._coreMouseService.activeProtocol="NONE";break;case 1004:this._coreService.decPrivateModes.sendFocus=false;break;case 1005:this._logService.debug("DECRST 1005 not supported (see #2507)");break;case 1006:case 1016:this._coreMouseService.activeEncoding="DEFAULT";break;case 1015:this._logService.debug("DECRST 1015 not supported (see #2507)");break;case 25:this._coreService.isCursorHidden=true;break;case 1048:this.restoreCursor();break;case 1049:case 47:case 1047:this._bufferService.buffers.activateNormalBuffer(),1049===e.params[t]&&this.restoreCursor(),this._coreService.isCursorInitialized=true,this._onRequestRefreshRows.fire(void 0),this._onRequestSyncScrollBar.fire();break;case 2004:this._coreService.decPrivateModes.bracketedPasteMode=false;break;case 2026:this._coreService.decPrivateModes.synchronizedOutput=false,this._onRequestRefreshRows.fire(void 0);}return  true}requestMode(e,t){const s=this._coreService.decPrivateModes,{activeProtocol:i,activeEncoding:r}=this._coreMouseService,o=this._coreService,{buffers:a,cols:h}=this._bufferService,{active:c,alt:l}=a,u=this._optionsService.rawOptions,d=e=>e?1:2,f=e.params[0];return _=f,p=t?2===f?4:4===f?d(o.modes.insertMode):12===f?3:20===f?d(u.convertEol):0:1===f?d(s.applicationCursorKeys):3===f?u.windowOptions.setWinLines?80===h?2:132===h?1:0:0:6===f?d(s.origin):7===f?d(s.wraparound):8===f?3:9===f?d("X10"===i):12===f?d(u.cursorBlink):25===f?d(!o.isCursorHidden):45===f?d(s.reverseWraparound):66===f?d(s.applicationKeypad):67===f?4:1e3===f?d("VT200"===i):1002===f?d("DRAG"===i):1003===f?d("ANY"===i):1004===f?d(s.sendFocus):1005===f?4:1006===f?d("SGR"===r):1015===f?4:1016===f?d("SGR_PIXELS"===r):1048===f?1:47===f||1047===f||1049===f?d(c===l):2004===f?d(s.bracketedPasteMode):2026===f?d(s.synchronizedOutput):0,o.triggerDataEvent(`${n.C0.ESC}[${t?"":"?"}${_};${p}$y`),true;var _,p;}_updateAttrColor(e,t,s,i,r){return 2===t?(e|=50331648,e&=-16777216,e|=f.AttributeData.fromColorRGB([s,i,r])):5===t&&(e&=-50331904,e|=33554432|255&s),e}_extractColor(e,t,s){const i=[0,0,-1,0,0,0];let r=0,n=0;do{if(i[n+r]=e.params[t+n],e.hasSubParams(t+n)){const s=e.getSubParams(t+n);let o=0;do{5===i[1]&&(r=1),i[n+o+1+r]=s[o];}while(++o<s.length&&o+n+1+r<i.length);break}if(5===i[1]&&n+r>=2||2===i[1]&&n+r>=5)break;i[1]&&(r=1);}while(++n+t<e.length&&n+r<i.length);for(let e=2;e<i.length;++e) -1===i[e]&&(i[e]=0);switch(i[0]){case 38:s.fg=this._updateAttrColor(s.fg,i[1],i[3],i[4],i[5]);break;case 48:s.bg=this._updateAttrColor(s.bg,i[1],i[3],i[4],i[5]);break;case 58:s.extended=s.extended.clone(),s.extended.underlineColor=this._updateAttrColor(s.extended.underlineColor,i[1],i[3],i[4],i[5]);}return n}_processUnderline(e,t){t.extended=t.extended.clone(),(!~e||e>5)&&(e=1),t.extended.underlineStyle=e,t.fg|=268435456,0===e&&(t.fg&=-268435457),t.updateExtended();}_processSGR0(e){e.fg=l.DEFAULT_ATTR_DATA.fg,e.bg=l.DEFAULT_ATTR_DATA.bg,e.extended=e.extended.clone(),e.extended.underlineStyle=0,e.extended.underlineColor&=-67108864,e.updateExtended();}charAttributes(e){if(1===e.length&&0===e.params[0])return this._processSGR0(this._curAttrData),true;const t=e.length;let s;const i=this._curAttrData;for(let r=0;r<t;r++)s=e.params[r],s>=30&&s<=37?(i.fg&=-50331904,i.fg|=16777216|s-30):s>=40&&s<=47?(i.bg&=-50331904,i.bg|=16777216|s-40):s>=90&&s<=97?(i.fg&=-50331904,i.fg|=16777224|s-90):s>=100&&s<=107?(i.bg&=-50331904,i.bg|=16777224|s-100):0===s?this._processSGR0(i):1===s?i.fg|=134217728:3===s?i.bg|=67108864:4===s?(i.fg|=268435456,this._processUnderline(e.hasSubParams(r)?e.getSubParams(r)[0]:1,i)):5===s?i.fg|=536870912:7===s?i.fg|=67108864:8===s?i.fg|=1073741824:9===s?i.fg|=2147483648:2===s?i.bg|=134217728:21===s?this._processUnderline(2,i):22===s?(i.fg&=-134217729,i.bg&=-134217729):23===s?i.bg&=-67108865:24===s?(i.fg&=-268435457,this._processUnderline(0,i)):25===s?i.fg&=-536870913:27===s?i.fg&=-67108865:28===s?i.fg&=-1073741825:29===s?i.fg&=2147483647:39===s?(i.fg&=-67108864,i.fg|=16777215&l.DEFAULT_ATTR_DATA.fg):49===s?(i.bg&=-67108864,i.bg|=16777215&l.DEFAULT_ATTR_DATA.bg):38===s||48===s||58===s?r+=this._extractColor(e,r,i):53===s?i.bg|=1073741824:55===s?i.bg&=-1073741825:59===s?(i.extended=i.extended.clone(),i.extended.underlineColor=-1,i.updateExtended()):100===s?(i.fg&=-67108864,i.fg|=16777215&l.DEFAULT_ATTR_DATA.fg,i.bg&=-67108864,i.bg|=16777215&l.DEFAULT_ATTR_DATA.bg):this._logService.debug("Unknown SGR attribute: %d.",s);return  true}deviceStatus(e){switch(e.params[0]){case 5:this._coreService.triggerDataEvent(`${n.C0.ESC}[0n`);break;case 6:const e=this._activeBuffer.y+1,t=this._activeBuffer.x+1;this._coreService.triggerDataEvent(`${n.C0.ESC}[${e};${t}R`);}return  true}deviceStatusPrivate(e){if(6===e.params[0]){const e=this._activeBuffer.y+1,t=this._activeBuffer.x+1;this._coreService.triggerDataEvent(`${n.C0.ESC}[?${e};${t}R`);}return  true}softReset(e){return this._coreService.isCursorHidden=false,this._onRequestSyncScrollBar.fire(),this._activeBuffer.scrollTop=0,this._activeBuffer.scrollBottom=this._bufferService.rows-1,this._curAttrData=l.DEFAULT_ATTR_DATA.clone(),this._coreService.reset(),this._charsetService.reset(),this._activeBuffer.savedX=0,this._activeBuffer.savedY=this._activeBuffer.ybase,this._activeBuffer.savedCurAttrData.fg=this._curAttrData.fg,this._activeBuffer.savedCurAttrData.bg=this._curAttrData.bg,this._activeBuffer.savedCharset=this._charsetService.charset,this._coreService.decPrivateModes.origin=false,true}setCursorStyle(e){const t=0===e.length?1:e.params[0];if(0===t)this._coreService.decPrivateModes.cursorStyle=void 0,this._coreService.decPrivateModes.cursorBlink=void 0;else {switch(t){case 1:case 2:this._coreService.decPrivateModes.cursorStyle="block";break;case 3:case 4:this._coreService.decPrivateModes.cursorStyle="underline";break;case 5:case 6:this._coreService.decPrivateModes.cursorStyle="bar";}const e=t%2==1;this._coreService.decPrivateModes.cursorBlink=e;}return  true}setScrollRegion(e){const t=e.params[0]||1;let s;return (e.length<2||(s=e.params[1])>this._bufferService.rows||0===s)&&(s=this._bufferService.rows),s>t&&(this._activeBuffer.scrollTop=t-1,this._activeBuffer.scrollBottom=s-1,this._setCursor(0,0)),true}windowOptions(e){if(!C(e.params[0],this._optionsService.rawOptions.windowOptions))return  true;const t=e.length>1?e.params[1]:0;switch(e.params[0]){case 14:2!==t&&this._onRequestWindowsOptionsReport.fire(w.GET_WIN_SIZE_PIXELS);break;case 16:this._onRequestWindowsOptionsReport.fire(w.GET_CELL_SIZE_PIXELS);break;case 18:this._bufferService&&this._coreService.triggerDataEvent(`${n.C0.ESC}[8;${this._bufferService.rows};${this._bufferService.cols}t`);break;case 22:0!==t&&2!==t||(this._windowTitleStack.push(this._windowTitle),this._windowTitleStack.length>10&&this._windowTitleStack.shift()),0!==t&&1!==t||(this._iconNameStack.push(this._iconName),this._iconNameStack.length>10&&this._iconNameStack.shift());break;case 23:0!==t&&2!==t||this._windowTitleStack.length&&this.setTitle(this._windowTitleStack.pop()),0!==t&&1!==t||this._iconNameStack.length&&this.setIconName(this._iconNameStack.pop());}return  true}saveCursor(e){return this._activeBuffer.savedX=this._activeBuffer.x,this._activeBuffer.savedY=this._activeBuffer.ybase+this._activeBuffer.y,this._activeBuffer.savedCurAttrData.fg=this._curAttrData.fg,this._activeBuffer.savedCurAttrData.bg=this._curAttrData.bg,this._activeBuffer.savedCharset=this._charsetService.charset,true}restoreCursor(e){return this._activeBuffer.x=this._activeBuffer.savedX||0,this._activeBuffer.y=Math.max(this._activeBuffer.savedY-this._activeBuffer.ybase,0),this._curAttrData.fg=this._activeBuffer.savedCurAttrData.fg,this._curAttrData.bg=this._activeBuffer.savedCurAttrData.bg,this._charsetService.charset=this._savedCharset,this._activeBuffer.savedCharset&&(this._charsetService.charset=this._activeBuffer.savedCharset),this._restrictCursor(),true}setTitle(e){return this._windowTitle=e,this._onTitleChange.fire(e),true}setIconName(e){return this._iconName=e,true}setOrReportIndexedColor(e){const t=[],s=e.split(";");for(;s.length>1;){const e=s.shift(),i=s.shift();if(/^\d+$/.exec(e)){const s=parseInt(e);if(k(s))if("?"===i)t.push({type:0,index:s});else {const e=(0, m.parseColor)(i);e&&t.push({type:1,index:s,color:e});}}}return t.length&&this._onColor.fire(t),true}setHyperlink(e){const t=e.indexOf(";");if(-1===t)return  true;const s=e.slice(0,t).trim(),i=e.slice(t+1);return i?this._createHyperlink(s,i):!s.trim()&&this._finishHyperlink()}_createHyperlink(e,t){this._getCurrentLinkId()&&this._finishHyperlink();const s=e.split(":");let i;const r=s.findIndex((e=>e.startsWith("id=")));return  -1!==r&&(i=s[r].slice(3)||void 0),this._curAttrData.extended=this._curAttrData.extended.clone(),this._curAttrData.extended.urlId=this._oscLinkService.registerLink({id:i,uri:t}),this._curAttrData.updateExtended(),true}_finishHyperlink(){return this._curAttrData.extended=this._curAttrData.extended.clone(),this._curAttrData.extended.urlId=0,this._curAttrData.updateExtended(),true}_setOrReportSpecialColor(e,t){const s=e.split(";");for(let e=0;e<s.length&&!(t>=this._specialColors.length);++e,++t)if("?"===s[e])this._onColor.fire([{type:0,index:this._specialColors[t]}]);else {const i=(0, m.parseColor)(s[e]);i&&this._onColor.fire([{type:1,index:this._specialColors[t],color:i}]);}return  true}setOrReportFgColor(e){return this._setOrReportSpecialColor(e,0)}setOrReportBgColor(e){return this._setOrReportSpecialColor(e,1)}setOrReportCursorColor(e){return this._setOrReportSpecialColor(e,2)}restoreIndexedColor(e){if(!e)return this._onColor.fire([{type:2}]),true;const t=[],s=e.split(";");for(let e=0;e<s.length;++e)if(/^\d+$/.exec(s[e])){const i=parseInt(s[e]);k(i)&&t.push({type:2,index:i});}return t.length&&this._onColor.fire(t),true}restoreFgColor(e){return this._onColor.fire([{type:2,index:256}]),true}restoreBgColor(e){return this._onColor.fire([{type:2,index:257}]),true}restoreCursorColor(e){return this._onColor.fire([{type:2,index:258}]),true}nextLine(){return this._activeBuffer.x=0,this.index(),true}keypadApplicationMode(){return this._logService.debug("Serial port requested application keypad."),this._coreService.decPrivateModes.applicationKeypad=true,this._onRequestSyncScrollBar.fire(),true}keypadNumericMode(){return this._logService.debug("Switching back to normal keypad."),this._coreService.decPrivateModes.applicationKeypad=false,this._onRequestSyncScrollBar.fire(),true}selectDefaultCharset(){return this._charsetService.setgLevel(0),this._charsetService.setgCharset(0,o.DEFAULT_CHARSET),true}selectCharset(e){return 2!==e.length?(this.selectDefaultCharset(),true):("/"===e[0]||this._charsetService.setgCharset(S[e[0]],o.CHARSETS[e[1]]||o.DEFAULT_CHARSET),true)}index(){return this._restrictCursor(),this._activeBuffer.y++,this._activeBuffer.y===this._activeBuffer.scrollBottom+1?(this._activeBuffer.y--,this._bufferService.scroll(this._eraseAttrData())):this._activeBuffer.y>=this._bufferService.rows&&(this._activeBuffer.y=this._bufferService.rows-1),this._restrictCursor(),true}tabSet(){return this._activeBuffer.tabs[this._activeBuffer.x]=true,true}reverseIndex(){if(this._restrictCursor(),this._activeBuffer.y===this._activeBuffer.scrollTop){const e=this._activeBuffer.scrollBottom-this._activeBuffer.scrollTop;this._activeBuffer.lines.shiftElements(this._activeBuffer.ybase+this._activeBuffer.y,e,1),this._activeBuffer.lines.set(this._activeBuffer.ybase+this._activeBuffer.y,this._activeBuffer.getBlankLine(this._eraseAttrData())),this._dirtyRowTracker.markRangeDirty(this._activeBuffer.scrollTop,this._activeBuffer.scrollBottom);}else this._activeBuffer.y--,this._restrictCursor();return  true}fullReset(){return this._parser.reset(),this._onRequestReset.fire(),true}reset(){this._curAttrData=l.DEFAULT_ATTR_DATA.clone(),this._eraseAttrDataInternal=l.DEFAULT_ATTR_DATA.clone();}_eraseAttrData(){return this._eraseAttrDataInternal.bg&=-67108864,this._eraseAttrDataInternal.bg|=67108863&this._curAttrData.bg,this._eraseAttrDataInternal}setgLevel(e){return this._charsetService.setgLevel(e),true}screenAlignmentPattern(){const e=new d.CellData;e.content=1<<22|"E".charCodeAt(0),e.fg=this._curAttrData.fg,e.bg=this._curAttrData.bg,this._setCursor(0,0);for(let t=0;t<this._bufferService.rows;++t){const s=this._activeBuffer.ybase+this._activeBuffer.y+t,i=this._activeBuffer.lines.get(s);i&&(i.fill(e),i.isWrapped=false);}return this._dirtyRowTracker.markAllDirty(),this._setCursor(0,0),true}requestStatusString(e,t){const s=this._bufferService.buffer,i=this._optionsService.rawOptions;return (e=>(this._coreService.triggerDataEvent(`${n.C0.ESC}${e}${n.C0.ESC}\\`),true))('"q'===e?`P1$r${this._curAttrData.isProtected()?1:0}"q`:'"p'===e?'P1$r61;1"p':"r"===e?`P1$r${s.scrollTop+1};${s.scrollBottom+1}r`:"m"===e?"P1$r0m":" q"===e?`P1$r${{block:2,underline:4,bar:6}[i.cursorStyle]-(i.cursorBlink?1:0)} q`:"P0$r")}markRangeDirty(e,t){this._dirtyRowTracker.markRangeDirty(e,t);}}t.InputHandler=A;let L=class{constructor(e){this._bufferService=e,this.clearRange();}clearRange(){this.start=this._bufferService.buffer.y,this.end=this._bufferService.buffer.y;}markDirty(e){e<this.start?this.start=e:e>this.end&&(this.end=e);}markRangeDirty(e,t){e>t&&(E=e,e=t,t=E),e<this.start&&(this.start=e),t>this.end&&(this.end=t);}markAllDirty(){this.markRangeDirty(0,this._bufferService.rows-1);}};function k(e){return 0<=e&&e<256}L=i([r(0,_.IBufferService)],L);},701:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.isChromeOS=t.isLinux=t.isWindows=t.isIphone=t.isIpad=t.isMac=t.isSafari=t.isLegacyEdge=t.isFirefox=t.isNode=void 0,t.getSafariVersion=function(){if(!t.isSafari)return 0;const e=s.match(/Version\/(\d+)/);return null===e||e.length<2?0:parseInt(e[1])},t.isNode="undefined"!=typeof process&&"title"in process;const s=t.isNode?"node":navigator.userAgent,i=t.isNode?"node":navigator.platform;t.isFirefox=s.includes("Firefox"),t.isLegacyEdge=s.includes("Edge"),t.isSafari=/^((?!chrome|android).)*safari/i.test(s),t.isMac=["Macintosh","MacIntel","MacPPC","Mac68K"].includes(i),t.isIpad="iPad"===i,t.isIphone="iPhone"===i,t.isWindows=["Windows","Win16","Win32","WinCE"].includes(i),t.isLinux=i.indexOf("Linux")>=0,t.isChromeOS=/\bCrOS\b/.test(s);},6168:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.DebouncedIdleTask=t.IdleTaskQueue=t.PriorityTaskQueue=void 0;const i=s(701);class r{constructor(){this._tasks=[],this._i=0;}enqueue(e){this._tasks.push(e),this._start();}flush(){for(;this._i<this._tasks.length;)this._tasks[this._i]()||this._i++;this.clear();}clear(){this._idleCallback&&(this._cancelCallback(this._idleCallback),this._idleCallback=void 0),this._i=0,this._tasks.length=0;}_start(){this._idleCallback||(this._idleCallback=this._requestCallback(this._process.bind(this)));}_process(e){this._idleCallback=void 0;let t=0,s=0,i=e.timeRemaining(),r=0;for(;this._i<this._tasks.length;){if(t=performance.now(),this._tasks[this._i]()||this._i++,t=Math.max(1,performance.now()-t),s=Math.max(t,s),r=e.timeRemaining(),1.5*s>r)return i-t<-20&&console.warn(`task queue exceeded allotted deadline by ${Math.abs(Math.round(i-t))}ms`),void this._start();i=r;}this.clear();}}class n extends r{_requestCallback(e){return setTimeout((()=>e(this._createDeadline(16))))}_cancelCallback(e){clearTimeout(e);}_createDeadline(e){const t=performance.now()+e;return {timeRemaining:()=>Math.max(0,t-performance.now())}}}t.PriorityTaskQueue=n,t.IdleTaskQueue=!i.isNode&&"requestIdleCallback"in window?class extends r{_requestCallback(e){return requestIdleCallback(e)}_cancelCallback(e){cancelIdleCallback(e);}}:n,t.DebouncedIdleTask=class{constructor(){this._queue=new t.IdleTaskQueue;}set(e){this._queue.clear(),this._queue.enqueue(e);}flush(){this._queue.flush();}};},5882:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.updateWindowsModeWrappedState=function(e){const t=e.buffer.lines.get(e.buffer.ybase+e.buffer.y-1),s=t?.get(e.cols-1),r=e.buffer.lines.get(e.buffer.ybase+e.buffer.y);r&&s&&(r.isWrapped=s[i.CHAR_DATA_CODE_INDEX]!==i.NULL_CELL_CODE&&s[i.CHAR_DATA_CODE_INDEX]!==i.WHITESPACE_CELL_CODE);};const i=s(8938);},5451:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.ExtendedAttrs=t.AttributeData=void 0;class s{constructor(){this.fg=0,this.bg=0,this.extended=new i;}static toColorRGB(e){return [e>>>16&255,e>>>8&255,255&e]}static fromColorRGB(e){return (255&e[0])<<16|(255&e[1])<<8|255&e[2]}clone(){const e=new s;return e.fg=this.fg,e.bg=this.bg,e.extended=this.extended.clone(),e}isInverse(){return 67108864&this.fg}isBold(){return 134217728&this.fg}isUnderline(){return this.hasExtendedAttrs()&&0!==this.extended.underlineStyle?1:268435456&this.fg}isBlink(){return 536870912&this.fg}isInvisible(){return 1073741824&this.fg}isItalic(){return 67108864&this.bg}isDim(){return 134217728&this.bg}isStrikethrough(){return 2147483648&this.fg}isProtected(){return 536870912&this.bg}isOverline(){return 1073741824&this.bg}getFgColorMode(){return 50331648&this.fg}getBgColorMode(){return 50331648&this.bg}isFgRGB(){return !(50331648&~this.fg)}isBgRGB(){return !(50331648&~this.bg)}isFgPalette(){return 16777216==(50331648&this.fg)||33554432==(50331648&this.fg)}isBgPalette(){return 16777216==(50331648&this.bg)||33554432==(50331648&this.bg)}isFgDefault(){return !(50331648&this.fg)}isBgDefault(){return !(50331648&this.bg)}isAttributeDefault(){return 0===this.fg&&0===this.bg}getFgColor(){switch(50331648&this.fg){case 16777216:case 33554432:return 255&this.fg;case 50331648:return 16777215&this.fg;default:return  -1}}getBgColor(){switch(50331648&this.bg){case 16777216:case 33554432:return 255&this.bg;case 50331648:return 16777215&this.bg;default:return  -1}}hasExtendedAttrs(){return 268435456&this.bg}updateExtended(){this.extended.isEmpty()?this.bg&=-268435457:this.bg|=268435456;}getUnderlineColor(){if(268435456&this.bg&&~this.extended.underlineColor)switch(50331648&this.extended.underlineColor){case 16777216:case 33554432:return 255&this.extended.underlineColor;case 50331648:return 16777215&this.extended.underlineColor;default:return this.getFgColor()}return this.getFgColor()}getUnderlineColorMode(){return 268435456&this.bg&&~this.extended.underlineColor?50331648&this.extended.underlineColor:this.getFgColorMode()}isUnderlineColorRGB(){return 268435456&this.bg&&~this.extended.underlineColor?!(50331648&~this.extended.underlineColor):this.isFgRGB()}isUnderlineColorPalette(){return 268435456&this.bg&&~this.extended.underlineColor?16777216==(50331648&this.extended.underlineColor)||33554432==(50331648&this.extended.underlineColor):this.isFgPalette()}isUnderlineColorDefault(){return 268435456&this.bg&&~this.extended.underlineColor?!(50331648&this.extended.underlineColor):this.isFgDefault()}getUnderlineStyle(){return 268435456&this.fg?268435456&this.bg?this.extended.underlineStyle:1:0}getUnderlineVariantOffset(){return this.extended.underlineVariantOffset}}t.AttributeData=s;class i{get ext(){return this._urlId?-469762049&this._ext|this.underlineStyle<<26:this._ext}set ext(e){this._ext=e;}get underlineStyle(){return this._urlId?5:(469762048&this._ext)>>26}set underlineStyle(e){this._ext&=-469762049,this._ext|=e<<26&469762048;}get underlineColor(){return 67108863&this._ext}set underlineColor(e){this._ext&=-67108864,this._ext|=67108863&e;}get urlId(){return this._urlId}set urlId(e){this._urlId=e;}get underlineVariantOffset(){const e=(3758096384&this._ext)>>29;return e<0?4294967288^e:e}set underlineVariantOffset(e){this._ext&=536870911,this._ext|=e<<29&3758096384;}constructor(e=0,t=0){this._ext=0,this._urlId=0,this._ext=e,this._urlId=t;}clone(){return new i(this._ext,this._urlId)}isEmpty(){return 0===this.underlineStyle&&0===this._urlId}}t.ExtendedAttrs=i;},1073:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.Buffer=t.MAX_BUFFER_SIZE=void 0;const i=s(5639),r=s(6168),n=s(5451),o=s(6107),a=s(732),h=s(3055),c=s(8938),l=s(8158),u=s(6760);t.MAX_BUFFER_SIZE=4294967295,t.Buffer=class{constructor(e,t,s){this._hasScrollback=e,this._optionsService=t,this._bufferService=s,this.ydisp=0,this.ybase=0,this.y=0,this.x=0,this.tabs={},this.savedY=0,this.savedX=0,this.savedCurAttrData=o.DEFAULT_ATTR_DATA.clone(),this.savedCharset=u.DEFAULT_CHARSET,this.markers=[],this._nullCell=h.CellData.fromCharData([0,c.NULL_CELL_CHAR,c.NULL_CELL_WIDTH,c.NULL_CELL_CODE]),this._whitespaceCell=h.CellData.fromCharData([0,c.WHITESPACE_CELL_CHAR,c.WHITESPACE_CELL_WIDTH,c.WHITESPACE_CELL_CODE]),this._isClearing=false,this._memoryCleanupQueue=new r.IdleTaskQueue,this._memoryCleanupPosition=0,this._cols=this._bufferService.cols,this._rows=this._bufferService.rows,this.lines=new i.CircularList(this._getCorrectBufferLength(this._rows)),this.scrollTop=0,this.scrollBottom=this._rows-1,this.setupTabStops();}getNullCell(e){return e?(this._nullCell.fg=e.fg,this._nullCell.bg=e.bg,this._nullCell.extended=e.extended):(this._nullCell.fg=0,this._nullCell.bg=0,this._nullCell.extended=new n.ExtendedAttrs),this._nullCell}getWhitespaceCell(e){return e?(this._whitespaceCell.fg=e.fg,this._whitespaceCell.bg=e.bg,this._whitespaceCell.extended=e.extended):(this._whitespaceCell.fg=0,this._whitespaceCell.bg=0,this._whitespaceCell.extended=new n.ExtendedAttrs),this._whitespaceCell}getBlankLine(e,t){return new o.BufferLine(this._bufferService.cols,this.getNullCell(e),t)}get hasScrollback(){return this._hasScrollback&&this.lines.maxLength>this._rows}get isCursorInViewport(){const e=this.ybase+this.y-this.ydisp;return e>=0&&e<this._rows}_getCorrectBufferLength(e){if(!this._hasScrollback)return e;const s=e+this._optionsService.rawOptions.scrollback;return s>t.MAX_BUFFER_SIZE?t.MAX_BUFFER_SIZE:s}fillViewportRows(e){if(0===this.lines.length){ void 0===e&&(e=o.DEFAULT_ATTR_DATA);let t=this._rows;for(;t--;)this.lines.push(this.getBlankLine(e));}}clear(){this.ydisp=0,this.ybase=0,this.y=0,this.x=0,this.lines=new i.CircularList(this._getCorrectBufferLength(this._rows)),this.scrollTop=0,this.scrollBottom=this._rows-1,this.setupTabStops();}resize(e,t){const s=this.getNullCell(o.DEFAULT_ATTR_DATA);let i=0;const r=this._getCorrectBufferLength(t);if(r>this.lines.maxLength&&(this.lines.maxLength=r),this.lines.length>0){if(this._cols<e)for(let t=0;t<this.lines.length;t++)i+=+this.lines.get(t).resize(e,s);let n=0;if(this._rows<t)for(let i=this._rows;i<t;i++)this.lines.length<t+this.ybase&&(this._optionsService.rawOptions.windowsMode||void 0!==this._optionsService.rawOptions.windowsPty.backend||void 0!==this._optionsService.rawOptions.windowsPty.buildNumber?this.lines.push(new o.BufferLine(e,s)):this.ybase>0&&this.lines.length<=this.ybase+this.y+n+1?(this.ybase--,n++,this.ydisp>0&&this.ydisp--):this.lines.push(new o.BufferLine(e,s)));else for(let e=this._rows;e>t;e--)this.lines.length>t+this.ybase&&(this.lines.length>this.ybase+this.y+1?this.lines.pop():(this.ybase++,this.ydisp++));if(r<this.lines.maxLength){const e=this.lines.length-r;e>0&&(this.lines.trimStart(e),this.ybase=Math.max(this.ybase-e,0),this.ydisp=Math.max(this.ydisp-e,0),this.savedY=Math.max(this.savedY-e,0)),this.lines.maxLength=r;}this.x=Math.min(this.x,e-1),this.y=Math.min(this.y,t-1),n&&(this.y+=n),this.savedX=Math.min(this.savedX,e-1),this.scrollTop=0;}if(this.scrollBottom=t-1,this._isReflowEnabled&&(this._reflow(e,t),this._cols>e))for(let t=0;t<this.lines.length;t++)i+=+this.lines.get(t).resize(e,s);this._cols=e,this._rows=t,this._memoryCleanupQueue.clear(),i>.1*this.lines.length&&(this._memoryCleanupPosition=0,this._memoryCleanupQueue.enqueue((()=>this._batchedMemoryCleanup())));}_batchedMemoryCleanup(){let e=true;this._memoryCleanupPosition>=this.lines.length&&(this._memoryCleanupPosition=0,e=false);let t=0;for(;this._memoryCleanupPosition<this.lines.length;)if(t+=this.lines.get(this._memoryCleanupPosition++).cleanupMemory(),t>100)return  true;return e}get _isReflowEnabled(){const e=this._optionsService.rawOptions.windowsPty;return e&&e.buildNumber?this._hasScrollback&&"conpty"===e.backend&&e.buildNumber>=21376:this._hasScrollback&&!this._optionsService.rawOptions.windowsMode}_reflow(e,t){this._cols!==e&&(e>this._cols?this._reflowLarger(e,t):this._reflowSmaller(e,t));}_reflowLarger(e,t){const s=this._optionsService.rawOptions.reflowCursorLine,i=(0, a.reflowLargerGetLinesToRemove)(this.lines,this._cols,e,this.ybase+this.y,this.getNullCell(o.DEFAULT_ATTR_DATA),s);if(i.length>0){const s=(0, a.reflowLargerCreateNewLayout)(this.lines,i);(0, a.reflowLargerApplyNewLayout)(this.lines,s.layout),this._reflowLargerAdjustViewport(e,t,s.countRemoved);}}_reflowLargerAdjustViewport(e,t,s){const i=this.getNullCell(o.DEFAULT_ATTR_DATA);let r=s;for(;r-- >0;)0===this.ybase?(this.y>0&&this.y--,this.lines.length<t&&this.lines.push(new o.BufferLine(e,i))):(this.ydisp===this.ybase&&this.ydisp--,this.ybase--);this.savedY=Math.max(this.savedY-s,0);}_reflowSmaller(e,t){const s=this._optionsService.rawOptions.reflowCursorLine,i=this.getNullCell(o.DEFAULT_ATTR_DATA),r=[];let n=0;for(let h=this.lines.length-1;h>=0;h--){let c=this.lines.get(h);if(!c||!c.isWrapped&&c.getTrimmedLength()<=e)continue;const l=[c];for(;c.isWrapped&&h>0;)c=this.lines.get(--h),l.unshift(c);if(!s){const e=this.ybase+this.y;if(e>=h&&e<h+l.length)continue}const u=l[l.length-1].getTrimmedLength(),d=(0, a.reflowSmallerGetNewLineLengths)(l,this._cols,e),f=d.length-l.length;let _;_=0===this.ybase&&this.y!==this.lines.length-1?Math.max(0,this.y-this.lines.maxLength+f):Math.max(0,this.lines.length-this.lines.maxLength+f);const p=[];for(let e=0;e<f;e++){const e=this.getBlankLine(o.DEFAULT_ATTR_DATA,true);p.push(e);}p.length>0&&(r.push({start:h+l.length+n,newLines:p}),n+=p.length),l.push(...p);let g=d.length-1,v=d[g];0===v&&(g--,v=d[g]);let m=l.length-f-1,b=u;for(;m>=0;){const e=Math.min(b,v);if(void 0===l[g])break;if(l[g].copyCellsFrom(l[m],b-e,v-e,e,true),v-=e,0===v&&(g--,v=d[g]),b-=e,0===b){m--;const e=Math.max(m,0);b=(0, a.getWrappedLineTrimmedLength)(l,e,this._cols);}}for(let t=0;t<l.length;t++)d[t]<e&&l[t].setCell(d[t],i);let S=f-_;for(;S-- >0;)0===this.ybase?this.y<t-1?(this.y++,this.lines.pop()):(this.ybase++,this.ydisp++):this.ybase<Math.min(this.lines.maxLength,this.lines.length+n)-t&&(this.ybase===this.ydisp&&this.ydisp++,this.ybase++);this.savedY=Math.min(this.savedY+f,this.ybase+t-1);}if(r.length>0){const e=[],t=[];for(let e=0;e<this.lines.length;e++)t.push(this.lines.get(e));const s=this.lines.length;let i=s-1,o=0,a=r[o];this.lines.length=Math.min(this.lines.maxLength,this.lines.length+n);let h=0;for(let c=Math.min(this.lines.maxLength-1,s+n-1);c>=0;c--)if(a&&a.start>i+h){for(let e=a.newLines.length-1;e>=0;e--)this.lines.set(c--,a.newLines[e]);c++,e.push({index:i+1,amount:a.newLines.length}),h+=a.newLines.length,a=r[++o];}else this.lines.set(c,t[i--]);let c=0;for(let t=e.length-1;t>=0;t--)e[t].index+=c,this.lines.onInsertEmitter.fire(e[t]),c+=e[t].amount;const l=Math.max(0,s+n-this.lines.maxLength);l>0&&this.lines.onTrimEmitter.fire(l);}}translateBufferLineToString(e,t,s=0,i){const r=this.lines.get(e);return r?r.translateToString(t,s,i):""}getWrappedRangeForLine(e){let t=e,s=e;for(;t>0&&this.lines.get(t).isWrapped;)t--;for(;s+1<this.lines.length&&this.lines.get(s+1).isWrapped;)s++;return {first:t,last:s}}setupTabStops(e){for(null!=e?this.tabs[e]||(e=this.prevStop(e)):(this.tabs={},e=0);e<this._cols;e+=this._optionsService.rawOptions.tabStopWidth)this.tabs[e]=true;}prevStop(e){for(null==e&&(e=this.x);!this.tabs[--e]&&e>0;);return e>=this._cols?this._cols-1:e<0?0:e}nextStop(e){for(null==e&&(e=this.x);!this.tabs[++e]&&e<this._cols;);return e>=this._cols?this._cols-1:e<0?0:e}clearMarkers(e){this._isClearing=true;for(let t=0;t<this.markers.length;t++)this.markers[t].line===e&&(this.markers[t].dispose(),this.markers.splice(t--,1));this._isClearing=false;}clearAllMarkers(){this._isClearing=true;for(let e=0;e<this.markers.length;e++)this.markers[e].dispose();this.markers.length=0,this._isClearing=false;}addMarker(e){const t=new l.Marker(e);return this.markers.push(t),t.register(this.lines.onTrim((e=>{t.line-=e,t.line<0&&t.dispose();}))),t.register(this.lines.onInsert((e=>{t.line>=e.index&&(t.line+=e.amount);}))),t.register(this.lines.onDelete((e=>{t.line>=e.index&&t.line<e.index+e.amount&&t.dispose(),t.line>e.index&&(t.line-=e.amount);}))),t.register(t.onDispose((()=>this._removeMarker(t)))),t}_removeMarker(e){this._isClearing||this.markers.splice(this.markers.indexOf(e),1);}};},6107:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.BufferLine=t.DEFAULT_ATTR_DATA=void 0;const i=s(5451),r=s(3055),n=s(8938),o=s(726);t.DEFAULT_ATTR_DATA=Object.freeze(new i.AttributeData);let a=0;class h{constructor(e,t,s=false){this.isWrapped=s,this._combined={},this._extendedAttrs={},this._data=new Uint32Array(3*e);const i=t||r.CellData.fromCharData([0,n.NULL_CELL_CHAR,n.NULL_CELL_WIDTH,n.NULL_CELL_CODE]);for(let t=0;t<e;++t)this.setCell(t,i);this.length=e;}get(e){const t=this._data[3*e+0],s=2097151&t;return [this._data[3*e+1],2097152&t?this._combined[e]:s?(0, o.stringFromCodePoint)(s):"",t>>22,2097152&t?this._combined[e].charCodeAt(this._combined[e].length-1):s]}set(e,t){this._data[3*e+1]=t[n.CHAR_DATA_ATTR_INDEX],t[n.CHAR_DATA_CHAR_INDEX].length>1?(this._combined[e]=t[1],this._data[3*e+0]=2097152|e|t[n.CHAR_DATA_WIDTH_INDEX]<<22):this._data[3*e+0]=t[n.CHAR_DATA_CHAR_INDEX].charCodeAt(0)|t[n.CHAR_DATA_WIDTH_INDEX]<<22;}getWidth(e){return this._data[3*e+0]>>22}hasWidth(e){return 12582912&this._data[3*e+0]}getFg(e){return this._data[3*e+1]}getBg(e){return this._data[3*e+2]}hasContent(e){return 4194303&this._data[3*e+0]}getCodePoint(e){const t=this._data[3*e+0];return 2097152&t?this._combined[e].charCodeAt(this._combined[e].length-1):2097151&t}isCombined(e){return 2097152&this._data[3*e+0]}getString(e){const t=this._data[3*e+0];return 2097152&t?this._combined[e]:2097151&t?(0, o.stringFromCodePoint)(2097151&t):""}isProtected(e){return 536870912&this._data[3*e+2]}loadCell(e,t){return a=3*e,t.content=this._data[a+0],t.fg=this._data[a+1],t.bg=this._data[a+2],2097152&t.content&&(t.combinedData=this._combined[e]),268435456&t.bg&&(t.extended=this._extendedAttrs[e]),t}setCell(e,t){2097152&t.content&&(this._combined[e]=t.combinedData),268435456&t.bg&&(this._extendedAttrs[e]=t.extended),this._data[3*e+0]=t.content,this._data[3*e+1]=t.fg,this._data[3*e+2]=t.bg;}setCellFromCodepoint(e,t,s,i){268435456&i.bg&&(this._extendedAttrs[e]=i.extended),this._data[3*e+0]=t|s<<22,this._data[3*e+1]=i.fg,this._data[3*e+2]=i.bg;}addCodepointToCell(e,t,s){let i=this._data[3*e+0];2097152&i?this._combined[e]+=(0, o.stringFromCodePoint)(t):2097151&i?(this._combined[e]=(0, o.stringFromCodePoint)(2097151&i)+(0, o.stringFromCodePoint)(t),i&=-2097152,i|=2097152):i=t|1<<22,s&&(i&=-12582913,i|=s<<22),this._data[3*e+0]=i;}insertCells(e,t,s){if((e%=this.length)&&2===this.getWidth(e-1)&&this.setCellFromCodepoint(e-1,0,1,s),t<this.length-e){const i=new r.CellData;for(let s=this.length-e-t-1;s>=0;--s)this.setCell(e+t+s,this.loadCell(e+s,i));for(let i=0;i<t;++i)this.setCell(e+i,s);}else for(let t=e;t<this.length;++t)this.setCell(t,s);2===this.getWidth(this.length-1)&&this.setCellFromCodepoint(this.length-1,0,1,s);}deleteCells(e,t,s){if(e%=this.length,t<this.length-e){const i=new r.CellData;for(let s=0;s<this.length-e-t;++s)this.setCell(e+s,this.loadCell(e+t+s,i));for(let e=this.length-t;e<this.length;++e)this.setCell(e,s);}else for(let t=e;t<this.length;++t)this.setCell(t,s);e&&2===this.getWidth(e-1)&&this.setCellFromCodepoint(e-1,0,1,s),0!==this.getWidth(e)||this.hasContent(e)||this.setCellFromCodepoint(e,0,1,s);}replaceCells(e,t,s,i=false){if(i)for(e&&2===this.getWidth(e-1)&&!this.isProtected(e-1)&&this.setCellFromCodepoint(e-1,0,1,s),t<this.length&&2===this.getWidth(t-1)&&!this.isProtected(t)&&this.setCellFromCodepoint(t,0,1,s);e<t&&e<this.length;)this.isProtected(e)||this.setCell(e,s),e++;else for(e&&2===this.getWidth(e-1)&&this.setCellFromCodepoint(e-1,0,1,s),t<this.length&&2===this.getWidth(t-1)&&this.setCellFromCodepoint(t,0,1,s);e<t&&e<this.length;)this.setCell(e++,s);}resize(e,t){if(e===this.length)return 4*this._data.length*2<this._data.buffer.byteLength;const s=3*e;if(e>this.length){if(this._data.buffer.byteLength>=4*s)this._data=new Uint32Array(this._data.buffer,0,s);else {const e=new Uint32Array(s);e.set(this._data),this._data=e;}for(let s=this.length;s<e;++s)this.setCell(s,t);}else {this._data=this._data.subarray(0,s);const t=Object.keys(this._combined);for(let s=0;s<t.length;s++){const i=parseInt(t[s],10);i>=e&&delete this._combined[i];}const i=Object.keys(this._extendedAttrs);for(let t=0;t<i.length;t++){const s=parseInt(i[t],10);s>=e&&delete this._extendedAttrs[s];}}return this.length=e,4*s*2<this._data.buffer.byteLength}cleanupMemory(){if(4*this._data.length*2<this._data.buffer.byteLength){const e=new Uint32Array(this._data.length);return e.set(this._data),this._data=e,1}return 0}fill(e,t=false){if(t)for(let t=0;t<this.length;++t)this.isProtected(t)||this.setCell(t,e);else {this._combined={},this._extendedAttrs={};for(let t=0;t<this.length;++t)this.setCell(t,e);}}copyFrom(e){this.length!==e.length?this._data=new Uint32Array(e._data):this._data.set(e._data),this.length=e.length,this._combined={};for(const t in e._combined)this._combined[t]=e._combined[t];this._extendedAttrs={};for(const t in e._extendedAttrs)this._extendedAttrs[t]=e._extendedAttrs[t];this.isWrapped=e.isWrapped;}clone(){const e=new h(0);e._data=new Uint32Array(this._data),e.length=this.length;for(const t in this._combined)e._combined[t]=this._combined[t];for(const t in this._extendedAttrs)e._extendedAttrs[t]=this._extendedAttrs[t];return e.isWrapped=this.isWrapped,e}getTrimmedLength(){for(let e=this.length-1;e>=0;--e)if(4194303&this._data[3*e+0])return e+(this._data[3*e+0]>>22);return 0}getNoBgTrimmedLength(){for(let e=this.length-1;e>=0;--e)if(4194303&this._data[3*e+0]||50331648&this._data[3*e+2])return e+(this._data[3*e+0]>>22);return 0}copyCellsFrom(e,t,s,i,r){const n=e._data;if(r)for(let r=i-1;r>=0;r--){for(let e=0;e<3;e++)this._data[3*(s+r)+e]=n[3*(t+r)+e];268435456&n[3*(t+r)+2]&&(this._extendedAttrs[s+r]=e._extendedAttrs[t+r]);}else for(let r=0;r<i;r++){for(let e=0;e<3;e++)this._data[3*(s+r)+e]=n[3*(t+r)+e];268435456&n[3*(t+r)+2]&&(this._extendedAttrs[s+r]=e._extendedAttrs[t+r]);}const o=Object.keys(e._combined);for(let i=0;i<o.length;i++){const r=parseInt(o[i],10);r>=t&&(this._combined[r-t+s]=e._combined[r]);}}translateToString(e,t,s,i){t=t??0,s=s??this.length,e&&(s=Math.min(s,this.getTrimmedLength())),i&&(i.length=0);let r="";for(;t<s;){const e=this._data[3*t+0],s=2097151&e,a=2097152&e?this._combined[t]:s?(0, o.stringFromCodePoint)(s):n.WHITESPACE_CELL_CHAR;if(r+=a,i)for(let e=0;e<a.length;++e)i.push(t);t+=e>>22||1;}return i&&i.push(t),r}}t.BufferLine=h;},732:(e,t)=>{function s(e,t,s){if(t===e.length-1)return e[t].getTrimmedLength();const i=!e[t].hasContent(s-1)&&1===e[t].getWidth(s-1),r=2===e[t+1].getWidth(0);return i&&r?s-1:s}Object.defineProperty(t,"__esModule",{value:true}),t.reflowLargerGetLinesToRemove=function(e,t,i,r,n,o){const a=[];for(let h=0;h<e.length-1;h++){let c=h,l=e.get(++c);if(!l.isWrapped)continue;const u=[e.get(h)];for(;c<e.length&&l.isWrapped;)u.push(l),l=e.get(++c);if(!o&&r>=h&&r<c){h+=u.length-1;continue}let d=0,f=s(u,d,t),_=1,p=0;for(;_<u.length;){const e=s(u,_,t),r=e-p,o=i-f,a=Math.min(r,o);u[d].copyCellsFrom(u[_],p,f,a,false),f+=a,f===i&&(d++,f=0),p+=a,p===e&&(_++,p=0),0===f&&0!==d&&2===u[d-1].getWidth(i-1)&&(u[d].copyCellsFrom(u[d-1],i-1,f++,1,false),u[d-1].setCell(i-1,n));}u[d].replaceCells(f,i,n);let g=0;for(let e=u.length-1;e>0&&(e>d||0===u[e].getTrimmedLength());e--)g++;g>0&&(a.push(h+u.length-g),a.push(g)),h+=u.length-1;}return a},t.reflowLargerCreateNewLayout=function(e,t){const s=[];let i=0,r=t[i],n=0;for(let o=0;o<e.length;o++)if(r===o){const s=t[++i];e.onDeleteEmitter.fire({index:o-n,amount:s}),o+=s-1,n+=s,r=t[++i];}else s.push(o);return {layout:s,countRemoved:n}},t.reflowLargerApplyNewLayout=function(e,t){const s=[];for(let i=0;i<t.length;i++)s.push(e.get(t[i]));for(let t=0;t<s.length;t++)e.set(t,s[t]);e.length=t.length;},t.reflowSmallerGetNewLineLengths=function(e,t,i){const r=[],n=e.map(((i,r)=>s(e,r,t))).reduce(((e,t)=>e+t));let o=0,a=0,h=0;for(;h<n;){if(n-h<i){r.push(n-h);break}o+=i;const c=s(e,a,t);o>c&&(o-=c,a++);const l=2===e[a].getWidth(o-1);l&&o--;const u=l?i-1:i;r.push(u),h+=u;}return r},t.getWrappedLineTrimmedLength=s;},4097:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.BufferSet=void 0;const i=s(7150),r=s(1073),n=s(802);class o extends i.Disposable{constructor(e,t){super(),this._optionsService=e,this._bufferService=t,this._onBufferActivate=this._register(new n.Emitter),this.onBufferActivate=this._onBufferActivate.event,this.reset(),this._register(this._optionsService.onSpecificOptionChange("scrollback",(()=>this.resize(this._bufferService.cols,this._bufferService.rows)))),this._register(this._optionsService.onSpecificOptionChange("tabStopWidth",(()=>this.setupTabStops())));}reset(){this._normal=new r.Buffer(true,this._optionsService,this._bufferService),this._normal.fillViewportRows(),this._alt=new r.Buffer(false,this._optionsService,this._bufferService),this._activeBuffer=this._normal,this._onBufferActivate.fire({activeBuffer:this._normal,inactiveBuffer:this._alt}),this.setupTabStops();}get alt(){return this._alt}get active(){return this._activeBuffer}get normal(){return this._normal}activateNormalBuffer(){this._activeBuffer!==this._normal&&(this._normal.x=this._alt.x,this._normal.y=this._alt.y,this._alt.clearAllMarkers(),this._alt.clear(),this._activeBuffer=this._normal,this._onBufferActivate.fire({activeBuffer:this._normal,inactiveBuffer:this._alt}));}activateAltBuffer(e){this._activeBuffer!==this._alt&&(this._alt.fillViewportRows(e),this._alt.x=this._normal.x,this._alt.y=this._normal.y,this._activeBuffer=this._alt,this._onBufferActivate.fire({activeBuffer:this._alt,inactiveBuffer:this._normal}));}resize(e,t){this._normal.resize(e,t),this._alt.resize(e,t),this.setupTabStops(e);}setupTabStops(e){this._normal.setupTabStops(e),this._alt.setupTabStops(e);}}t.BufferSet=o;},3055:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.CellData=void 0;const i=s(726),r=s(8938),n=s(5451);class o extends n.AttributeData{constructor(){super(...arguments),this.content=0,this.fg=0,this.bg=0,this.extended=new n.ExtendedAttrs,this.combinedData="";}static fromCharData(e){const t=new o;return t.setFromCharData(e),t}isCombined(){return 2097152&this.content}getWidth(){return this.content>>22}getChars(){return 2097152&this.content?this.combinedData:2097151&this.content?(0, i.stringFromCodePoint)(2097151&this.content):""}getCode(){return this.isCombined()?this.combinedData.charCodeAt(this.combinedData.length-1):2097151&this.content}setFromCharData(e){this.fg=e[r.CHAR_DATA_ATTR_INDEX],this.bg=0;let t=false;if(e[r.CHAR_DATA_CHAR_INDEX].length>2)t=true;else if(2===e[r.CHAR_DATA_CHAR_INDEX].length){const s=e[r.CHAR_DATA_CHAR_INDEX].charCodeAt(0);if(55296<=s&&s<=56319){const i=e[r.CHAR_DATA_CHAR_INDEX].charCodeAt(1);56320<=i&&i<=57343?this.content=1024*(s-55296)+i-56320+65536|e[r.CHAR_DATA_WIDTH_INDEX]<<22:t=true;}else t=true;}else this.content=e[r.CHAR_DATA_CHAR_INDEX].charCodeAt(0)|e[r.CHAR_DATA_WIDTH_INDEX]<<22;t&&(this.combinedData=e[r.CHAR_DATA_CHAR_INDEX],this.content=2097152|e[r.CHAR_DATA_WIDTH_INDEX]<<22);}getAsCharData(){return [this.fg,this.getChars(),this.getWidth(),this.getCode()]}}t.CellData=o;},8938:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.WHITESPACE_CELL_CODE=t.WHITESPACE_CELL_WIDTH=t.WHITESPACE_CELL_CHAR=t.NULL_CELL_CODE=t.NULL_CELL_WIDTH=t.NULL_CELL_CHAR=t.CHAR_DATA_CODE_INDEX=t.CHAR_DATA_WIDTH_INDEX=t.CHAR_DATA_CHAR_INDEX=t.CHAR_DATA_ATTR_INDEX=t.DEFAULT_EXT=t.DEFAULT_ATTR=t.DEFAULT_COLOR=void 0,t.DEFAULT_COLOR=0,t.DEFAULT_ATTR=t.DEFAULT_COLOR<<9|256,t.DEFAULT_EXT=0,t.CHAR_DATA_ATTR_INDEX=0,t.CHAR_DATA_CHAR_INDEX=1,t.CHAR_DATA_WIDTH_INDEX=2,t.CHAR_DATA_CODE_INDEX=3,t.NULL_CELL_CHAR="",t.NULL_CELL_WIDTH=1,t.NULL_CELL_CODE=0,t.WHITESPACE_CELL_CHAR=" ",t.WHITESPACE_CELL_WIDTH=1,t.WHITESPACE_CELL_CODE=32;},8158:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.Marker=void 0;const i=s(802),r=s(7150);class n{get id(){return this._id}constructor(e){this.line=e,this.isDisposed=false,this._disposables=[],this._id=n._nextId++,this._onDispose=this.register(new i.Emitter),this.onDispose=this._onDispose.event;}dispose(){this.isDisposed||(this.isDisposed=true,this.line=-1,this._onDispose.fire(),(0, r.dispose)(this._disposables),this._disposables.length=0);}register(e){return this._disposables.push(e),e}}t.Marker=n,n._nextId=1;},6760:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.DEFAULT_CHARSET=t.CHARSETS=void 0,t.CHARSETS={},t.DEFAULT_CHARSET=t.CHARSETS.B,t.CHARSETS[0]={"`":"◆",a:"▒",b:"␉",c:"␌",d:"␍",e:"␊",f:"°",g:"±",h:"␤",i:"␋",j:"┘",k:"┐",l:"┌",m:"└",n:"┼",o:"⎺",p:"⎻",q:"─",r:"⎼",s:"⎽",t:"├",u:"┤",v:"┴",w:"┬",x:"│",y:"≤",z:"≥","{":"π","|":"≠","}":"£","~":"·"},t.CHARSETS.A={"#":"£"},t.CHARSETS.B=void 0,t.CHARSETS[4]={"#":"£","@":"¾","[":"ij","\\":"½","]":"|","{":"¨","|":"f","}":"¼","~":"´"},t.CHARSETS.C=t.CHARSETS[5]={"[":"Ä","\\":"Ö","]":"Å","^":"Ü","`":"é","{":"ä","|":"ö","}":"å","~":"ü"},t.CHARSETS.R={"#":"£","@":"à","[":"°","\\":"ç","]":"§","{":"é","|":"ù","}":"è","~":"¨"},t.CHARSETS.Q={"@":"à","[":"â","\\":"ç","]":"ê","^":"î","`":"ô","{":"é","|":"ù","}":"è","~":"û"},t.CHARSETS.K={"@":"§","[":"Ä","\\":"Ö","]":"Ü","{":"ä","|":"ö","}":"ü","~":"ß"},t.CHARSETS.Y={"#":"£","@":"§","[":"°","\\":"ç","]":"é","`":"ù","{":"à","|":"ò","}":"è","~":"ì"},t.CHARSETS.E=t.CHARSETS[6]={"@":"Ä","[":"Æ","\\":"Ø","]":"Å","^":"Ü","`":"ä","{":"æ","|":"ø","}":"å","~":"ü"},t.CHARSETS.Z={"#":"£","@":"§","[":"¡","\\":"Ñ","]":"¿","{":"°","|":"ñ","}":"ç"},t.CHARSETS.H=t.CHARSETS[7]={"@":"É","[":"Ä","\\":"Ö","]":"Å","^":"Ü","`":"é","{":"ä","|":"ö","}":"å","~":"ü"},t.CHARSETS["="]={"#":"ù","@":"à","[":"é","\\":"ç","]":"ê","^":"î",_:"è","`":"ô","{":"ä","|":"ö","}":"ü","~":"û"};},3534:(e,t)=>{var s,i,r;Object.defineProperty(t,"__esModule",{value:true}),t.C1_ESCAPED=t.C1=t.C0=void 0,function(e){e.NUL="\0",e.SOH="",e.STX="",e.ETX="",e.EOT="",e.ENQ="",e.ACK="",e.BEL="",e.BS="\b",e.HT="\t",e.LF="\n",e.VT="\v",e.FF="\f",e.CR="\r",e.SO="",e.SI="",e.DLE="",e.DC1="",e.DC2="",e.DC3="",e.DC4="",e.NAK="",e.SYN="",e.ETB="",e.CAN="",e.EM="",e.SUB="",e.ESC="",e.FS="",e.GS="",e.RS="",e.US="",e.SP=" ",e.DEL="";}(s||(t.C0=s={})),function(e){e.PAD="",e.HOP="",e.BPH="",e.NBH="",e.IND="",e.NEL="",e.SSA="",e.ESA="",e.HTS="",e.HTJ="",e.VTS="",e.PLD="",e.PLU="",e.RI="",e.SS2="",e.SS3="",e.DCS="",e.PU1="",e.PU2="",e.STS="",e.CCH="",e.MW="",e.SPA="",e.EPA="",e.SOS="",e.SGCI="",e.SCI="",e.CSI="",e.ST="",e.OSC="",e.PM="",e.APC="";}(i||(t.C1=i={})),function(e){e.ST=`${s.ESC}\\`;}(r||(t.C1_ESCAPED=r={}));},726:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.Utf8ToUtf32=t.StringToUtf32=void 0,t.stringFromCodePoint=function(e){return e>65535?(e-=65536,String.fromCharCode(55296+(e>>10))+String.fromCharCode(e%1024+56320)):String.fromCharCode(e)},t.utf32ToString=function(e,t=0,s=e.length){let i="";for(let r=t;r<s;++r){let t=e[r];t>65535?(t-=65536,i+=String.fromCharCode(55296+(t>>10))+String.fromCharCode(t%1024+56320)):i+=String.fromCharCode(t);}return i},t.StringToUtf32=class{constructor(){this._interim=0;}clear(){this._interim=0;}decode(e,t){const s=e.length;if(!s)return 0;let i=0,r=0;if(this._interim){const s=e.charCodeAt(r++);56320<=s&&s<=57343?t[i++]=1024*(this._interim-55296)+s-56320+65536:(t[i++]=this._interim,t[i++]=s),this._interim=0;}for(let n=r;n<s;++n){const r=e.charCodeAt(n);if(55296<=r&&r<=56319){if(++n>=s)return this._interim=r,i;const o=e.charCodeAt(n);56320<=o&&o<=57343?t[i++]=1024*(r-55296)+o-56320+65536:(t[i++]=r,t[i++]=o);}else 65279!==r&&(t[i++]=r);}return i}},t.Utf8ToUtf32=class{constructor(){this.interim=new Uint8Array(3);}clear(){this.interim.fill(0);}decode(e,t){const s=e.length;if(!s)return 0;let i,r,n,o,a=0,h=0,c=0;if(this.interim[0]){let i=false,r=this.interim[0];r&=192==(224&r)?31:224==(240&r)?15:7;let n,o=0;for(;(n=63&this.interim[++o])&&o<4;)r<<=6,r|=n;const h=192==(224&this.interim[0])?2:224==(240&this.interim[0])?3:4,l=h-o;for(;c<l;){if(c>=s)return 0;if(n=e[c++],128!=(192&n)){c--,i=true;break}this.interim[o++]=n,r<<=6,r|=63&n;}i||(2===h?r<128?c--:t[a++]=r:3===h?r<2048||r>=55296&&r<=57343||65279===r||(t[a++]=r):r<65536||r>1114111||(t[a++]=r)),this.interim.fill(0);}const l=s-4;let u=c;for(;u<s;){for(;!(!(u<l)||128&(i=e[u])||128&(r=e[u+1])||128&(n=e[u+2])||128&(o=e[u+3]));)t[a++]=i,t[a++]=r,t[a++]=n,t[a++]=o,u+=4;if(i=e[u++],i<128)t[a++]=i;else if(192==(224&i)){if(u>=s)return this.interim[0]=i,a;if(r=e[u++],128!=(192&r)){u--;continue}if(h=(31&i)<<6|63&r,h<128){u--;continue}t[a++]=h;}else if(224==(240&i)){if(u>=s)return this.interim[0]=i,a;if(r=e[u++],128!=(192&r)){u--;continue}if(u>=s)return this.interim[0]=i,this.interim[1]=r,a;if(n=e[u++],128!=(192&n)){u--;continue}if(h=(15&i)<<12|(63&r)<<6|63&n,h<2048||h>=55296&&h<=57343||65279===h)continue;t[a++]=h;}else if(240==(248&i)){if(u>=s)return this.interim[0]=i,a;if(r=e[u++],128!=(192&r)){u--;continue}if(u>=s)return this.interim[0]=i,this.interim[1]=r,a;if(n=e[u++],128!=(192&n)){u--;continue}if(u>=s)return this.interim[0]=i,this.interim[1]=r,this.interim[2]=n,a;if(o=e[u++],128!=(192&o)){u--;continue}if(h=(7&i)<<18|(63&r)<<12|(63&n)<<6|63&o,h<65536||h>1114111)continue;t[a++]=h;}}return a}};},7428:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.UnicodeV6=void 0;const i=s(6415),r=[[768,879],[1155,1158],[1160,1161],[1425,1469],[1471,1471],[1473,1474],[1476,1477],[1479,1479],[1536,1539],[1552,1557],[1611,1630],[1648,1648],[1750,1764],[1767,1768],[1770,1773],[1807,1807],[1809,1809],[1840,1866],[1958,1968],[2027,2035],[2305,2306],[2364,2364],[2369,2376],[2381,2381],[2385,2388],[2402,2403],[2433,2433],[2492,2492],[2497,2500],[2509,2509],[2530,2531],[2561,2562],[2620,2620],[2625,2626],[2631,2632],[2635,2637],[2672,2673],[2689,2690],[2748,2748],[2753,2757],[2759,2760],[2765,2765],[2786,2787],[2817,2817],[2876,2876],[2879,2879],[2881,2883],[2893,2893],[2902,2902],[2946,2946],[3008,3008],[3021,3021],[3134,3136],[3142,3144],[3146,3149],[3157,3158],[3260,3260],[3263,3263],[3270,3270],[3276,3277],[3298,3299],[3393,3395],[3405,3405],[3530,3530],[3538,3540],[3542,3542],[3633,3633],[3636,3642],[3655,3662],[3761,3761],[3764,3769],[3771,3772],[3784,3789],[3864,3865],[3893,3893],[3895,3895],[3897,3897],[3953,3966],[3968,3972],[3974,3975],[3984,3991],[3993,4028],[4038,4038],[4141,4144],[4146,4146],[4150,4151],[4153,4153],[4184,4185],[4448,4607],[4959,4959],[5906,5908],[5938,5940],[5970,5971],[6002,6003],[6068,6069],[6071,6077],[6086,6086],[6089,6099],[6109,6109],[6155,6157],[6313,6313],[6432,6434],[6439,6440],[6450,6450],[6457,6459],[6679,6680],[6912,6915],[6964,6964],[6966,6970],[6972,6972],[6978,6978],[7019,7027],[7616,7626],[7678,7679],[8203,8207],[8234,8238],[8288,8291],[8298,8303],[8400,8431],[12330,12335],[12441,12442],[43014,43014],[43019,43019],[43045,43046],[64286,64286],[65024,65039],[65056,65059],[65279,65279],[65529,65531]],n=[[68097,68099],[68101,68102],[68108,68111],[68152,68154],[68159,68159],[119143,119145],[119155,119170],[119173,119179],[119210,119213],[119362,119364],[917505,917505],[917536,917631],[917760,917999]];let o;t.UnicodeV6=class{constructor(){if(this.version="6",!o){o=new Uint8Array(65536),o.fill(1),o[0]=0,o.fill(0,1,32),o.fill(0,127,160),o.fill(2,4352,4448),o[9001]=2,o[9002]=2,o.fill(2,11904,42192),o[12351]=1,o.fill(2,44032,55204),o.fill(2,63744,64256),o.fill(2,65040,65050),o.fill(2,65072,65136),o.fill(2,65280,65377),o.fill(2,65504,65511);for(let e=0;e<r.length;++e)o.fill(0,r[e][0],r[e][1]+1);}}wcwidth(e){return e<32?0:e<127?1:e<65536?o[e]:function(e,t){let s,i=0,r=t.length-1;if(e<t[0][0]||e>t[r][1])return  false;for(;r>=i;)if(s=i+r>>1,e>t[s][1])i=s+1;else {if(!(e<t[s][0]))return  true;r=s-1;}return  false}(e,n)?0:e>=131072&&e<=196605||e>=196608&&e<=262141?2:1}charProperties(e,t){let s=this.wcwidth(e),r=0===s&&0!==t;if(r){const e=i.UnicodeService.extractWidth(t);0===e?r=false:e>s&&(s=e);}return i.UnicodeService.createPropertyValue(0,s,r)}};},3562:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.WriteBuffer=void 0;const i=s(7150),r=s(802);class n extends i.Disposable{constructor(e){super(),this._action=e,this._writeBuffer=[],this._callbacks=[],this._pendingData=0,this._bufferOffset=0,this._isSyncWriting=false,this._syncCalls=0,this._didUserInput=false,this._onWriteParsed=this._register(new r.Emitter),this.onWriteParsed=this._onWriteParsed.event;}handleUserInput(){this._didUserInput=true;}writeSync(e,t){if(void 0!==t&&this._syncCalls>t)return void(this._syncCalls=0);if(this._pendingData+=e.length,this._writeBuffer.push(e),this._callbacks.push(void 0),this._syncCalls++,this._isSyncWriting)return;let s;for(this._isSyncWriting=true;s=this._writeBuffer.shift();){this._action(s);const e=this._callbacks.shift();e&&e();}this._pendingData=0,this._bufferOffset=2147483647,this._isSyncWriting=false,this._syncCalls=0;}write(e,t){if(this._pendingData>5e7)throw new Error("write data discarded, use flow control to avoid losing data");if(!this._writeBuffer.length){if(this._bufferOffset=0,this._didUserInput)return this._didUserInput=false,this._pendingData+=e.length,this._writeBuffer.push(e),this._callbacks.push(t),void this._innerWrite();setTimeout((()=>this._innerWrite()));}this._pendingData+=e.length,this._writeBuffer.push(e),this._callbacks.push(t);}_innerWrite(e=0,t=true){const s=e||performance.now();for(;this._writeBuffer.length>this._bufferOffset;){const e=this._writeBuffer[this._bufferOffset],i=this._action(e,t);if(i){const e=e=>performance.now()-s>=12?setTimeout((()=>this._innerWrite(0,e))):this._innerWrite(s,e);return void i.catch((e=>(queueMicrotask((()=>{throw e})),Promise.resolve(false)))).then(e)}const r=this._callbacks[this._bufferOffset];if(r&&r(),this._bufferOffset++,this._pendingData-=e.length,performance.now()-s>=12)break}this._writeBuffer.length>this._bufferOffset?(this._bufferOffset>50&&(this._writeBuffer=this._writeBuffer.slice(this._bufferOffset),this._callbacks=this._callbacks.slice(this._bufferOffset),this._bufferOffset=0),setTimeout((()=>this._innerWrite()))):(this._writeBuffer.length=0,this._callbacks.length=0,this._pendingData=0,this._bufferOffset=0),this._onWriteParsed.fire();}}t.WriteBuffer=n;},8693:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.parseColor=function(e){if(!e)return;let t=e.toLowerCase();if(0===t.indexOf("rgb:")){t=t.slice(4);const e=s.exec(t);if(e){const t=e[1]?15:e[4]?255:e[7]?4095:65535;return [Math.round(parseInt(e[1]||e[4]||e[7]||e[10],16)/t*255),Math.round(parseInt(e[2]||e[5]||e[8]||e[11],16)/t*255),Math.round(parseInt(e[3]||e[6]||e[9]||e[12],16)/t*255)]}}else if(0===t.indexOf("#")&&(t=t.slice(1),i.exec(t)&&[3,6,9,12].includes(t.length))){const e=t.length/3,s=[0,0,0];for(let i=0;i<3;++i){const r=parseInt(t.slice(e*i,e*i+e),16);s[i]=1===e?r<<4:2===e?r:3===e?r>>4:r>>8;}return s}},t.toRgbString=function(e,t=16){const[s,i,n]=e;return `rgb:${r(s,t)}/${r(i,t)}/${r(n,t)}`};const s=/^([\da-f])\/([\da-f])\/([\da-f])$|^([\da-f]{2})\/([\da-f]{2})\/([\da-f]{2})$|^([\da-f]{3})\/([\da-f]{3})\/([\da-f]{3})$|^([\da-f]{4})\/([\da-f]{4})\/([\da-f]{4})$/,i=/^[\da-f]+$/;function r(e,t){const s=e.toString(16),i=s.length<2?"0"+s:s;switch(t){case 4:return s[0];case 8:return i;case 12:return (i+i).slice(0,3);default:return i+i}}},1263:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.PAYLOAD_LIMIT=void 0,t.PAYLOAD_LIMIT=1e7;},9823:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.DcsHandler=t.DcsParser=void 0;const i=s(726),r=s(7262),n=s(1263),o=[];t.DcsParser=class{constructor(){this._handlers=Object.create(null),this._active=o,this._ident=0,this._handlerFb=()=>{},this._stack={paused:false,loopPosition:0,fallThrough:false};}dispose(){this._handlers=Object.create(null),this._handlerFb=()=>{},this._active=o;}registerHandler(e,t){ void 0===this._handlers[e]&&(this._handlers[e]=[]);const s=this._handlers[e];return s.push(t),{dispose:()=>{const e=s.indexOf(t);-1!==e&&s.splice(e,1);}}}clearHandler(e){this._handlers[e]&&delete this._handlers[e];}setHandlerFallback(e){this._handlerFb=e;}reset(){if(this._active.length)for(let e=this._stack.paused?this._stack.loopPosition-1:this._active.length-1;e>=0;--e)this._active[e].unhook(false);this._stack.paused=false,this._active=o,this._ident=0;}hook(e,t){if(this.reset(),this._ident=e,this._active=this._handlers[e]||o,this._active.length)for(let e=this._active.length-1;e>=0;e--)this._active[e].hook(t);else this._handlerFb(this._ident,"HOOK",t);}put(e,t,s){if(this._active.length)for(let i=this._active.length-1;i>=0;i--)this._active[i].put(e,t,s);else this._handlerFb(this._ident,"PUT",(0, i.utf32ToString)(e,t,s));}unhook(e,t=true){if(this._active.length){let s=false,i=this._active.length-1,r=false;if(this._stack.paused&&(i=this._stack.loopPosition-1,s=t,r=this._stack.fallThrough,this._stack.paused=false),!r&&false===s){for(;i>=0&&(s=this._active[i].unhook(e),true!==s);i--)if(s instanceof Promise)return this._stack.paused=true,this._stack.loopPosition=i,this._stack.fallThrough=false,s;i--;}for(;i>=0;i--)if(s=this._active[i].unhook(false),s instanceof Promise)return this._stack.paused=true,this._stack.loopPosition=i,this._stack.fallThrough=true,s}else this._handlerFb(this._ident,"UNHOOK",e);this._active=o,this._ident=0;}};const a=new r.Params;a.addParam(0),t.DcsHandler=class{constructor(e){this._handler=e,this._data="",this._params=a,this._hitLimit=false;}hook(e){this._params=e.length>1||e.params[0]?e.clone():a,this._data="",this._hitLimit=false;}put(e,t,s){this._hitLimit||(this._data+=(0, i.utf32ToString)(e,t,s),this._data.length>n.PAYLOAD_LIMIT&&(this._data="",this._hitLimit=true));}unhook(e){let t=false;if(this._hitLimit)t=false;else if(e&&(t=this._handler(this._data,this._params),t instanceof Promise))return t.then((e=>(this._params=a,this._data="",this._hitLimit=false,e)));return this._params=a,this._data="",this._hitLimit=false,t}};},6717:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.EscapeSequenceParser=t.VT500_TRANSITION_TABLE=t.TransitionTable=void 0;const i=s(7150),r=s(7262),n=s(1346),o=s(9823);class a{constructor(e){this.table=new Uint8Array(e);}setDefault(e,t){this.table.fill(e<<4|t);}add(e,t,s,i){this.table[t<<8|e]=s<<4|i;}addMany(e,t,s,i){for(let r=0;r<e.length;r++)this.table[t<<8|e[r]]=s<<4|i;}}t.TransitionTable=a;const h=160;t.VT500_TRANSITION_TABLE=function(){const e=new a(4095),t=Array.apply(null,Array(256)).map(((e,t)=>t)),s=(e,s)=>t.slice(e,s),i=s(32,127),r=s(0,24);r.push(25),r.push.apply(r,s(28,32));const n=s(0,14);let o;for(o in e.setDefault(1,0),e.addMany(i,0,2,0),n)e.addMany([24,26,153,154],o,3,0),e.addMany(s(128,144),o,3,0),e.addMany(s(144,152),o,3,0),e.add(156,o,0,0),e.add(27,o,11,1),e.add(157,o,4,8),e.addMany([152,158,159],o,0,7),e.add(155,o,11,3),e.add(144,o,11,9);return e.addMany(r,0,3,0),e.addMany(r,1,3,1),e.add(127,1,0,1),e.addMany(r,8,0,8),e.addMany(r,3,3,3),e.add(127,3,0,3),e.addMany(r,4,3,4),e.add(127,4,0,4),e.addMany(r,6,3,6),e.addMany(r,5,3,5),e.add(127,5,0,5),e.addMany(r,2,3,2),e.add(127,2,0,2),e.add(93,1,4,8),e.addMany(i,8,5,8),e.add(127,8,5,8),e.addMany([156,27,24,26,7],8,6,0),e.addMany(s(28,32),8,0,8),e.addMany([88,94,95],1,0,7),e.addMany(i,7,0,7),e.addMany(r,7,0,7),e.add(156,7,0,0),e.add(127,7,0,7),e.add(91,1,11,3),e.addMany(s(64,127),3,7,0),e.addMany(s(48,60),3,8,4),e.addMany([60,61,62,63],3,9,4),e.addMany(s(48,60),4,8,4),e.addMany(s(64,127),4,7,0),e.addMany([60,61,62,63],4,0,6),e.addMany(s(32,64),6,0,6),e.add(127,6,0,6),e.addMany(s(64,127),6,0,0),e.addMany(s(32,48),3,9,5),e.addMany(s(32,48),5,9,5),e.addMany(s(48,64),5,0,6),e.addMany(s(64,127),5,7,0),e.addMany(s(32,48),4,9,5),e.addMany(s(32,48),1,9,2),e.addMany(s(32,48),2,9,2),e.addMany(s(48,127),2,10,0),e.addMany(s(48,80),1,10,0),e.addMany(s(81,88),1,10,0),e.addMany([89,90,92],1,10,0),e.addMany(s(96,127),1,10,0),e.add(80,1,11,9),e.addMany(r,9,0,9),e.add(127,9,0,9),e.addMany(s(28,32),9,0,9),e.addMany(s(32,48),9,9,12),e.addMany(s(48,60),9,8,10),e.addMany([60,61,62,63],9,9,10),e.addMany(r,11,0,11),e.addMany(s(32,128),11,0,11),e.addMany(s(28,32),11,0,11),e.addMany(r,10,0,10),e.add(127,10,0,10),e.addMany(s(28,32),10,0,10),e.addMany(s(48,60),10,8,10),e.addMany([60,61,62,63],10,0,11),e.addMany(s(32,48),10,9,12),e.addMany(r,12,0,12),e.add(127,12,0,12),e.addMany(s(28,32),12,0,12),e.addMany(s(32,48),12,9,12),e.addMany(s(48,64),12,0,11),e.addMany(s(64,127),12,12,13),e.addMany(s(64,127),10,12,13),e.addMany(s(64,127),9,12,13),e.addMany(r,13,13,13),e.addMany(i,13,13,13),e.add(127,13,0,13),e.addMany([27,156,24,26],13,14,0),e.add(h,0,2,0),e.add(h,8,5,8),e.add(h,6,0,6),e.add(h,11,0,11),e.add(h,13,13,13),e}();class c extends i.Disposable{constructor(e=t.VT500_TRANSITION_TABLE){super(),this._transitions=e,this._parseStack={state:0,handlers:[],handlerPos:0,transition:0,chunkPos:0},this.initialState=0,this.currentState=this.initialState,this._params=new r.Params,this._params.addParam(0),this._collect=0,this.precedingJoinState=0,this._printHandlerFb=(e,t,s)=>{},this._executeHandlerFb=e=>{},this._csiHandlerFb=(e,t)=>{},this._escHandlerFb=e=>{},this._errorHandlerFb=e=>e,this._printHandler=this._printHandlerFb,this._executeHandlers=Object.create(null),this._csiHandlers=Object.create(null),this._escHandlers=Object.create(null),this._register((0, i.toDisposable)((()=>{this._csiHandlers=Object.create(null),this._executeHandlers=Object.create(null),this._escHandlers=Object.create(null);}))),this._oscParser=this._register(new n.OscParser),this._dcsParser=this._register(new o.DcsParser),this._errorHandler=this._errorHandlerFb,this.registerEscHandler({final:"\\"},(()=>true));}_identifier(e,t=[64,126]){let s=0;if(e.prefix){if(e.prefix.length>1)throw new Error("only one byte as prefix supported");if(s=e.prefix.charCodeAt(0),s&&60>s||s>63)throw new Error("prefix must be in range 0x3c .. 0x3f")}if(e.intermediates){if(e.intermediates.length>2)throw new Error("only two bytes as intermediates are supported");for(let t=0;t<e.intermediates.length;++t){const i=e.intermediates.charCodeAt(t);if(32>i||i>47)throw new Error("intermediate must be in range 0x20 .. 0x2f");s<<=8,s|=i;}}if(1!==e.final.length)throw new Error("final must be a single byte");const i=e.final.charCodeAt(0);if(t[0]>i||i>t[1])throw new Error(`final must be in range ${t[0]} .. ${t[1]}`);return s<<=8,s|=i,s}identToString(e){const t=[];for(;e;)t.push(String.fromCharCode(255&e)),e>>=8;return t.reverse().join("")}setPrintHandler(e){this._printHandler=e;}clearPrintHandler(){this._printHandler=this._printHandlerFb;}registerEscHandler(e,t){const s=this._identifier(e,[48,126]);void 0===this._escHandlers[s]&&(this._escHandlers[s]=[]);const i=this._escHandlers[s];return i.push(t),{dispose:()=>{const e=i.indexOf(t);-1!==e&&i.splice(e,1);}}}clearEscHandler(e){this._escHandlers[this._identifier(e,[48,126])]&&delete this._escHandlers[this._identifier(e,[48,126])];}setEscHandlerFallback(e){this._escHandlerFb=e;}setExecuteHandler(e,t){this._executeHandlers[e.charCodeAt(0)]=t;}clearExecuteHandler(e){this._executeHandlers[e.charCodeAt(0)]&&delete this._executeHandlers[e.charCodeAt(0)];}setExecuteHandlerFallback(e){this._executeHandlerFb=e;}registerCsiHandler(e,t){const s=this._identifier(e);void 0===this._csiHandlers[s]&&(this._csiHandlers[s]=[]);const i=this._csiHandlers[s];return i.push(t),{dispose:()=>{const e=i.indexOf(t);-1!==e&&i.splice(e,1);}}}clearCsiHandler(e){this._csiHandlers[this._identifier(e)]&&delete this._csiHandlers[this._identifier(e)];}setCsiHandlerFallback(e){this._csiHandlerFb=e;}registerDcsHandler(e,t){return this._dcsParser.registerHandler(this._identifier(e),t)}clearDcsHandler(e){this._dcsParser.clearHandler(this._identifier(e));}setDcsHandlerFallback(e){this._dcsParser.setHandlerFallback(e);}registerOscHandler(e,t){return this._oscParser.registerHandler(e,t)}clearOscHandler(e){this._oscParser.clearHandler(e);}setOscHandlerFallback(e){this._oscParser.setHandlerFallback(e);}setErrorHandler(e){this._errorHandler=e;}clearErrorHandler(){this._errorHandler=this._errorHandlerFb;}reset(){this.currentState=this.initialState,this._oscParser.reset(),this._dcsParser.reset(),this._params.reset(),this._params.addParam(0),this._collect=0,this.precedingJoinState=0,0!==this._parseStack.state&&(this._parseStack.state=2,this._parseStack.handlers=[]);}_preserveStack(e,t,s,i,r){this._parseStack.state=e,this._parseStack.handlers=t,this._parseStack.handlerPos=s,this._parseStack.transition=i,this._parseStack.chunkPos=r;}parse(e,t,s){let i,r=0,n=0,o=0;if(this._parseStack.state)if(2===this._parseStack.state)this._parseStack.state=0,o=this._parseStack.chunkPos+1;else {if(void 0===s||1===this._parseStack.state)throw this._parseStack.state=1,new Error("improper continuation due to previous async handler, giving up parsing");const t=this._parseStack.handlers;let n=this._parseStack.handlerPos-1;switch(this._parseStack.state){case 3:if(false===s&&n>-1)for(;n>=0&&(i=t[n](this._params),true!==i);n--)if(i instanceof Promise)return this._parseStack.handlerPos=n,i;this._parseStack.handlers=[];break;case 4:if(false===s&&n>-1)for(;n>=0&&(i=t[n](),true!==i);n--)if(i instanceof Promise)return this._parseStack.handlerPos=n,i;this._parseStack.handlers=[];break;case 6:if(r=e[this._parseStack.chunkPos],i=this._dcsParser.unhook(24!==r&&26!==r,s),i)return i;27===r&&(this._parseStack.transition|=1),this._params.reset(),this._params.addParam(0),this._collect=0;break;case 5:if(r=e[this._parseStack.chunkPos],i=this._oscParser.end(24!==r&&26!==r,s),i)return i;27===r&&(this._parseStack.transition|=1),this._params.reset(),this._params.addParam(0),this._collect=0;}this._parseStack.state=0,o=this._parseStack.chunkPos+1,this.precedingJoinState=0,this.currentState=15&this._parseStack.transition;}for(let s=o;s<t;++s){switch(r=e[s],n=this._transitions.table[this.currentState<<8|(r<160?r:h)],n>>4){case 2:for(let i=s+1;;++i){if(i>=t||(r=e[i])<32||r>126&&r<h){this._printHandler(e,s,i),s=i-1;break}if(++i>=t||(r=e[i])<32||r>126&&r<h){this._printHandler(e,s,i),s=i-1;break}if(++i>=t||(r=e[i])<32||r>126&&r<h){this._printHandler(e,s,i),s=i-1;break}if(++i>=t||(r=e[i])<32||r>126&&r<h){this._printHandler(e,s,i),s=i-1;break}}break;case 3:this._executeHandlers[r]?this._executeHandlers[r]():this._executeHandlerFb(r),this.precedingJoinState=0;break;case 0:break;case 1:if(this._errorHandler({position:s,code:r,currentState:this.currentState,collect:this._collect,params:this._params,abort:false}).abort)return;break;case 7:const o=this._csiHandlers[this._collect<<8|r];let a=o?o.length-1:-1;for(;a>=0&&(i=o[a](this._params),true!==i);a--)if(i instanceof Promise)return this._preserveStack(3,o,a,n,s),i;a<0&&this._csiHandlerFb(this._collect<<8|r,this._params),this.precedingJoinState=0;break;case 8:do{switch(r){case 59:this._params.addParam(0);break;case 58:this._params.addSubParam(-1);break;default:this._params.addDigit(r-48);}}while(++s<t&&(r=e[s])>47&&r<60);s--;break;case 9:this._collect<<=8,this._collect|=r;break;case 10:const c=this._escHandlers[this._collect<<8|r];let l=c?c.length-1:-1;for(;l>=0&&(i=c[l](),true!==i);l--)if(i instanceof Promise)return this._preserveStack(4,c,l,n,s),i;l<0&&this._escHandlerFb(this._collect<<8|r),this.precedingJoinState=0;break;case 11:this._params.reset(),this._params.addParam(0),this._collect=0;break;case 12:this._dcsParser.hook(this._collect<<8|r,this._params);break;case 13:for(let i=s+1;;++i)if(i>=t||24===(r=e[i])||26===r||27===r||r>127&&r<h){this._dcsParser.put(e,s,i),s=i-1;break}break;case 14:if(i=this._dcsParser.unhook(24!==r&&26!==r),i)return this._preserveStack(6,[],0,n,s),i;27===r&&(n|=1),this._params.reset(),this._params.addParam(0),this._collect=0,this.precedingJoinState=0;break;case 4:this._oscParser.start();break;case 5:for(let i=s+1;;i++)if(i>=t||(r=e[i])<32||r>127&&r<h){this._oscParser.put(e,s,i),s=i-1;break}break;case 6:if(i=this._oscParser.end(24!==r&&26!==r),i)return this._preserveStack(5,[],0,n,s),i;27===r&&(n|=1),this._params.reset(),this._params.addParam(0),this._collect=0,this.precedingJoinState=0;}this.currentState=15&n;}}}t.EscapeSequenceParser=c;},1346:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.OscHandler=t.OscParser=void 0;const i=s(1263),r=s(726),n=[];t.OscParser=class{constructor(){this._state=0,this._active=n,this._id=-1,this._handlers=Object.create(null),this._handlerFb=()=>{},this._stack={paused:false,loopPosition:0,fallThrough:false};}registerHandler(e,t){ void 0===this._handlers[e]&&(this._handlers[e]=[]);const s=this._handlers[e];return s.push(t),{dispose:()=>{const e=s.indexOf(t);-1!==e&&s.splice(e,1);}}}clearHandler(e){this._handlers[e]&&delete this._handlers[e];}setHandlerFallback(e){this._handlerFb=e;}dispose(){this._handlers=Object.create(null),this._handlerFb=()=>{},this._active=n;}reset(){if(2===this._state)for(let e=this._stack.paused?this._stack.loopPosition-1:this._active.length-1;e>=0;--e)this._active[e].end(false);this._stack.paused=false,this._active=n,this._id=-1,this._state=0;}_start(){if(this._active=this._handlers[this._id]||n,this._active.length)for(let e=this._active.length-1;e>=0;e--)this._active[e].start();else this._handlerFb(this._id,"START");}_put(e,t,s){if(this._active.length)for(let i=this._active.length-1;i>=0;i--)this._active[i].put(e,t,s);else this._handlerFb(this._id,"PUT",(0, r.utf32ToString)(e,t,s));}start(){this.reset(),this._state=1;}put(e,t,s){if(3!==this._state){if(1===this._state)for(;t<s;){const s=e[t++];if(59===s){this._state=2,this._start();break}if(s<48||57<s)return void(this._state=3);-1===this._id&&(this._id=0),this._id=10*this._id+s-48;}2===this._state&&s-t>0&&this._put(e,t,s);}}end(e,t=true){if(0!==this._state){if(3!==this._state)if(1===this._state&&this._start(),this._active.length){let s=false,i=this._active.length-1,r=false;if(this._stack.paused&&(i=this._stack.loopPosition-1,s=t,r=this._stack.fallThrough,this._stack.paused=false),!r&&false===s){for(;i>=0&&(s=this._active[i].end(e),true!==s);i--)if(s instanceof Promise)return this._stack.paused=true,this._stack.loopPosition=i,this._stack.fallThrough=false,s;i--;}for(;i>=0;i--)if(s=this._active[i].end(false),s instanceof Promise)return this._stack.paused=true,this._stack.loopPosition=i,this._stack.fallThrough=true,s}else this._handlerFb(this._id,"END",e);this._active=n,this._id=-1,this._state=0;}}},t.OscHandler=class{constructor(e){this._handler=e,this._data="",this._hitLimit=false;}start(){this._data="",this._hitLimit=false;}put(e,t,s){this._hitLimit||(this._data+=(0, r.utf32ToString)(e,t,s),this._data.length>i.PAYLOAD_LIMIT&&(this._data="",this._hitLimit=true));}end(e){let t=false;if(this._hitLimit)t=false;else if(e&&(t=this._handler(this._data),t instanceof Promise))return t.then((e=>(this._data="",this._hitLimit=false,e)));return this._data="",this._hitLimit=false,t}};},7262:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.Params=void 0;const s=2147483647;class i{static fromArray(e){const t=new i;if(!e.length)return t;for(let s=Array.isArray(e[0])?1:0;s<e.length;++s){const i=e[s];if(Array.isArray(i))for(let e=0;e<i.length;++e)t.addSubParam(i[e]);else t.addParam(i);}return t}constructor(e=32,t=32){if(this.maxLength=e,this.maxSubParamsLength=t,t>256)throw new Error("maxSubParamsLength must not be greater than 256");this.params=new Int32Array(e),this.length=0,this._subParams=new Int32Array(t),this._subParamsLength=0,this._subParamsIdx=new Uint16Array(e),this._rejectDigits=false,this._rejectSubDigits=false,this._digitIsSub=false;}clone(){const e=new i(this.maxLength,this.maxSubParamsLength);return e.params.set(this.params),e.length=this.length,e._subParams.set(this._subParams),e._subParamsLength=this._subParamsLength,e._subParamsIdx.set(this._subParamsIdx),e._rejectDigits=this._rejectDigits,e._rejectSubDigits=this._rejectSubDigits,e._digitIsSub=this._digitIsSub,e}toArray(){const e=[];for(let t=0;t<this.length;++t){e.push(this.params[t]);const s=this._subParamsIdx[t]>>8,i=255&this._subParamsIdx[t];i-s>0&&e.push(Array.prototype.slice.call(this._subParams,s,i));}return e}reset(){this.length=0,this._subParamsLength=0,this._rejectDigits=false,this._rejectSubDigits=false,this._digitIsSub=false;}addParam(e){if(this._digitIsSub=false,this.length>=this.maxLength)this._rejectDigits=true;else {if(e<-1)throw new Error("values lesser than -1 are not allowed");this._subParamsIdx[this.length]=this._subParamsLength<<8|this._subParamsLength,this.params[this.length++]=e>s?s:e;}}addSubParam(e){if(this._digitIsSub=true,this.length)if(this._rejectDigits||this._subParamsLength>=this.maxSubParamsLength)this._rejectSubDigits=true;else {if(e<-1)throw new Error("values lesser than -1 are not allowed");this._subParams[this._subParamsLength++]=e>s?s:e,this._subParamsIdx[this.length-1]++;}}hasSubParams(e){return (255&this._subParamsIdx[e])-(this._subParamsIdx[e]>>8)>0}getSubParams(e){const t=this._subParamsIdx[e]>>8,s=255&this._subParamsIdx[e];return s-t>0?this._subParams.subarray(t,s):null}getSubParamsAll(){const e={};for(let t=0;t<this.length;++t){const s=this._subParamsIdx[t]>>8,i=255&this._subParamsIdx[t];i-s>0&&(e[t]=this._subParams.slice(s,i));}return e}addDigit(e){let t;if(this._rejectDigits||!(t=this._digitIsSub?this._subParamsLength:this.length)||this._digitIsSub&&this._rejectSubDigits)return;const i=this._digitIsSub?this._subParams:this.params,r=i[t-1];i[t-1]=~r?Math.min(10*r+e,s):e;}}t.Params=i;},3027:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.AddonManager=void 0,t.AddonManager=class{constructor(){this._addons=[];}dispose(){for(let e=this._addons.length-1;e>=0;e--)this._addons[e].instance.dispose();}loadAddon(e,t){const s={instance:t,dispose:t.dispose,isDisposed:false};this._addons.push(s),t.dispose=()=>this._wrappedAddonDispose(s),t.activate(e);}_wrappedAddonDispose(e){if(e.isDisposed)return;let t=-1;for(let s=0;s<this._addons.length;s++)if(this._addons[s]===e){t=s;break}if(-1===t)throw new Error("Could not dispose an addon that has not been loaded");e.isDisposed=true,e.dispose.apply(e.instance),this._addons.splice(t,1);}};},3235:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.BufferApiView=void 0;const i=s(793),r=s(3055);t.BufferApiView=class{constructor(e,t){this._buffer=e,this.type=t;}init(e){return this._buffer=e,this}get cursorY(){return this._buffer.y}get cursorX(){return this._buffer.x}get viewportY(){return this._buffer.ydisp}get baseY(){return this._buffer.ybase}get length(){return this._buffer.lines.length}getLine(e){const t=this._buffer.lines.get(e);if(t)return new i.BufferLineApiView(t)}getNullCell(){return new r.CellData}};},793:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.BufferLineApiView=void 0;const i=s(3055);t.BufferLineApiView=class{constructor(e){this._line=e;}get isWrapped(){return this._line.isWrapped}get length(){return this._line.length}getCell(e,t){if(!(e<0||e>=this._line.length))return t?(this._line.loadCell(e,t),t):this._line.loadCell(e,new i.CellData)}translateToString(e,t,s){return this._line.translateToString(e,t,s)}};},5101:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.BufferNamespaceApi=void 0;const i=s(3235),r=s(7150),n=s(802);class o extends r.Disposable{constructor(e){super(),this._core=e,this._onBufferChange=this._register(new n.Emitter),this.onBufferChange=this._onBufferChange.event,this._normal=new i.BufferApiView(this._core.buffers.normal,"normal"),this._alternate=new i.BufferApiView(this._core.buffers.alt,"alternate"),this._core.buffers.onBufferActivate((()=>this._onBufferChange.fire(this.active)));}get active(){if(this._core.buffers.active===this._core.buffers.normal)return this.normal;if(this._core.buffers.active===this._core.buffers.alt)return this.alternate;throw new Error("Active buffer is neither normal nor alternate")}get normal(){return this._normal.init(this._core.buffers.normal)}get alternate(){return this._alternate.init(this._core.buffers.alt)}}t.BufferNamespaceApi=o;},6097:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.ParserApi=void 0,t.ParserApi=class{constructor(e){this._core=e;}registerCsiHandler(e,t){return this._core.registerCsiHandler(e,(e=>t(e.toArray())))}addCsiHandler(e,t){return this.registerCsiHandler(e,t)}registerDcsHandler(e,t){return this._core.registerDcsHandler(e,((e,s)=>t(e,s.toArray())))}addDcsHandler(e,t){return this.registerDcsHandler(e,t)}registerEscHandler(e,t){return this._core.registerEscHandler(e,t)}addEscHandler(e,t){return this.registerEscHandler(e,t)}registerOscHandler(e,t){return this._core.registerOscHandler(e,t)}addOscHandler(e,t){return this.registerOscHandler(e,t)}};},4335:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.UnicodeApi=void 0,t.UnicodeApi=class{constructor(e){this._core=e;}register(e){this._core.unicodeService.register(e);}get versions(){return this._core.unicodeService.versions}get activeVersion(){return this._core.unicodeService.activeVersion}set activeVersion(e){this._core.unicodeService.activeVersion=e;}};},9640:function(e,t,s){var i=this&&this.__decorate||function(e,t,s,i){var r,n=arguments.length,o=n<3?t:null===i?i=Object.getOwnPropertyDescriptor(t,s):i;if("object"==typeof Reflect&&"function"==typeof Reflect.decorate)o=Reflect.decorate(e,t,s,i);else for(var a=e.length-1;a>=0;a--)(r=e[a])&&(o=(n<3?r(o):n>3?r(t,s,o):r(t,s))||o);return n>3&&o&&Object.defineProperty(t,s,o),o},r=this&&this.__param||function(e,t){return function(s,i){t(s,i,e);}};Object.defineProperty(t,"__esModule",{value:true}),t.BufferService=t.MINIMUM_ROWS=t.MINIMUM_COLS=void 0;const n=s(7150),o=s(4097),a=s(6501),h=s(802);t.MINIMUM_COLS=2,t.MINIMUM_ROWS=1;let c=class extends n.Disposable{get buffer(){return this.buffers.active}constructor(e){super(),this.isUserScrolling=false,this._onResize=this._register(new h.Emitter),this.onResize=this._onResize.event,this._onScroll=this._register(new h.Emitter),this.onScroll=this._onScroll.event,this.cols=Math.max(e.rawOptions.cols||0,t.MINIMUM_COLS),this.rows=Math.max(e.rawOptions.rows||0,t.MINIMUM_ROWS),this.buffers=this._register(new o.BufferSet(e,this)),this._register(this.buffers.onBufferActivate((e=>{this._onScroll.fire(e.activeBuffer.ydisp);})));}resize(e,t){const s=this.cols!==e,i=this.rows!==t;this.cols=e,this.rows=t,this.buffers.resize(e,t),this._onResize.fire({cols:e,rows:t,colsChanged:s,rowsChanged:i});}reset(){this.buffers.reset(),this.isUserScrolling=false;}scroll(e,t=false){const s=this.buffer;let i;i=this._cachedBlankLine,i&&i.length===this.cols&&i.getFg(0)===e.fg&&i.getBg(0)===e.bg||(i=s.getBlankLine(e,t),this._cachedBlankLine=i),i.isWrapped=t;const r=s.ybase+s.scrollTop,n=s.ybase+s.scrollBottom;if(0===s.scrollTop){const e=s.lines.isFull;n===s.lines.length-1?e?s.lines.recycle().copyFrom(i):s.lines.push(i.clone()):s.lines.splice(n+1,0,i.clone()),e?this.isUserScrolling&&(s.ydisp=Math.max(s.ydisp-1,0)):(s.ybase++,this.isUserScrolling||s.ydisp++);}else {const e=n-r+1;s.lines.shiftElements(r+1,e-1,-1),s.lines.set(n,i.clone());}this.isUserScrolling||(s.ydisp=s.ybase),this._onScroll.fire(s.ydisp);}scrollLines(e,t){const s=this.buffer;if(e<0){if(0===s.ydisp)return;this.isUserScrolling=true;}else e+s.ydisp>=s.ybase&&(this.isUserScrolling=false);const i=s.ydisp;s.ydisp=Math.max(Math.min(s.ydisp+e,s.ybase),0),i!==s.ydisp&&(t||this._onScroll.fire(s.ydisp));}};t.BufferService=c,t.BufferService=c=i([r(0,a.IOptionsService)],c);},5746:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.CharsetService=void 0,t.CharsetService=class{constructor(){this.glevel=0,this._charsets=[];}reset(){this.charset=void 0,this._charsets=[],this.glevel=0;}setgLevel(e){this.glevel=e,this.charset=this._charsets[e];}setgCharset(e,t){this._charsets[e]=t,this.glevel===e&&(this.charset=t);}};},7792:function(e,t,s){var i=this&&this.__decorate||function(e,t,s,i){var r,n=arguments.length,o=n<3?t:null===i?i=Object.getOwnPropertyDescriptor(t,s):i;if("object"==typeof Reflect&&"function"==typeof Reflect.decorate)o=Reflect.decorate(e,t,s,i);else for(var a=e.length-1;a>=0;a--)(r=e[a])&&(o=(n<3?r(o):n>3?r(t,s,o):r(t,s))||o);return n>3&&o&&Object.defineProperty(t,s,o),o},r=this&&this.__param||function(e,t){return function(s,i){t(s,i,e);}};Object.defineProperty(t,"__esModule",{value:true}),t.CoreMouseService=void 0;const n=s(6501),o=s(7150),a=s(802),h={NONE:{events:0,restrict:()=>false},X10:{events:1,restrict:e=>4!==e.button&&1===e.action&&(e.ctrl=false,e.alt=false,e.shift=false,true)},VT200:{events:19,restrict:e=>32!==e.action},DRAG:{events:23,restrict:e=>32!==e.action||3!==e.button},ANY:{events:31,restrict:e=>true}};function c(e,t){let s=(e.ctrl?16:0)|(e.shift?4:0)|(e.alt?8:0);return 4===e.button?(s|=64,s|=e.action):(s|=3&e.button,4&e.button&&(s|=64),8&e.button&&(s|=128),32===e.action?s|=32:0!==e.action||t||(s|=3)),s}const l=String.fromCharCode,u={DEFAULT:e=>{const t=[c(e,false)+32,e.col+32,e.row+32];return t[0]>255||t[1]>255||t[2]>255?"":`[M${l(t[0])}${l(t[1])}${l(t[2])}`},SGR:e=>{const t=0===e.action&&4!==e.button?"m":"M";return `[<${c(e,true)};${e.col};${e.row}${t}`},SGR_PIXELS:e=>{const t=0===e.action&&4!==e.button?"m":"M";return `[<${c(e,true)};${e.x};${e.y}${t}`}};let d=class extends o.Disposable{constructor(e,t,s){super(),this._bufferService=e,this._coreService=t,this._optionsService=s,this._protocols={},this._encodings={},this._activeProtocol="",this._activeEncoding="",this._lastEvent=null,this._wheelPartialScroll=0,this._onProtocolChange=this._register(new a.Emitter),this.onProtocolChange=this._onProtocolChange.event;for(const e of Object.keys(h))this.addProtocol(e,h[e]);for(const e of Object.keys(u))this.addEncoding(e,u[e]);this.reset();}addProtocol(e,t){this._protocols[e]=t;}addEncoding(e,t){this._encodings[e]=t;}get activeProtocol(){return this._activeProtocol}get areMouseEventsActive(){return 0!==this._protocols[this._activeProtocol].events}set activeProtocol(e){if(!this._protocols[e])throw new Error(`unknown protocol "${e}"`);this._activeProtocol=e,this._onProtocolChange.fire(this._protocols[e].events);}get activeEncoding(){return this._activeEncoding}set activeEncoding(e){if(!this._encodings[e])throw new Error(`unknown encoding "${e}"`);this._activeEncoding=e;}reset(){this.activeProtocol="NONE",this.activeEncoding="DEFAULT",this._lastEvent=null,this._wheelPartialScroll=0;}consumeWheelEvent(e,t,s){if(0===e.deltaY||e.shiftKey)return 0;if(void 0===t||void 0===s)return 0;const i=t/s;let r=this._applyScrollModifier(e.deltaY,e);return e.deltaMode===WheelEvent.DOM_DELTA_PIXEL?(r/=i+0,Math.abs(e.deltaY)<50&&(r*=.3),this._wheelPartialScroll+=r,r=Math.floor(Math.abs(this._wheelPartialScroll))*(this._wheelPartialScroll>0?1:-1),this._wheelPartialScroll%=1):e.deltaMode===WheelEvent.DOM_DELTA_PAGE&&(r*=this._bufferService.rows),r}_applyScrollModifier(e,t){return t.altKey||t.ctrlKey||t.shiftKey?e*this._optionsService.rawOptions.fastScrollSensitivity*this._optionsService.rawOptions.scrollSensitivity:e*this._optionsService.rawOptions.scrollSensitivity}triggerMouseEvent(e){if(e.col<0||e.col>=this._bufferService.cols||e.row<0||e.row>=this._bufferService.rows)return  false;if(4===e.button&&32===e.action)return  false;if(3===e.button&&32!==e.action)return  false;if(4!==e.button&&(2===e.action||3===e.action))return  false;if(e.col++,e.row++,32===e.action&&this._lastEvent&&this._equalEvents(this._lastEvent,e,"SGR_PIXELS"===this._activeEncoding))return  false;if(!this._protocols[this._activeProtocol].restrict(e))return  false;const t=this._encodings[this._activeEncoding](e);return t&&("DEFAULT"===this._activeEncoding?this._coreService.triggerBinaryEvent(t):this._coreService.triggerDataEvent(t,true)),this._lastEvent=e,true}explainEvents(e){return {down:!!(1&e),up:!!(2&e),drag:!!(4&e),move:!!(8&e),wheel:!!(16&e)}}_equalEvents(e,t,s){if(s){if(e.x!==t.x)return  false;if(e.y!==t.y)return  false}else {if(e.col!==t.col)return  false;if(e.row!==t.row)return  false}return e.button===t.button&&e.action===t.action&&e.ctrl===t.ctrl&&e.alt===t.alt&&e.shift===t.shift}};t.CoreMouseService=d,t.CoreMouseService=d=i([r(0,n.IBufferService),r(1,n.ICoreService),r(2,n.IOptionsService)],d);},4071:function(e,t,s){var i=this&&this.__decorate||function(e,t,s,i){var r,n=arguments.length,o=n<3?t:null===i?i=Object.getOwnPropertyDescriptor(t,s):i;if("object"==typeof Reflect&&"function"==typeof Reflect.decorate)o=Reflect.decorate(e,t,s,i);else for(var a=e.length-1;a>=0;a--)(r=e[a])&&(o=(n<3?r(o):n>3?r(t,s,o):r(t,s))||o);return n>3&&o&&Object.defineProperty(t,s,o),o},r=this&&this.__param||function(e,t){return function(s,i){t(s,i,e);}};Object.defineProperty(t,"__esModule",{value:true}),t.CoreService=void 0;const n=s(7453),o=s(7150),a=s(6501),h=s(802),c=Object.freeze({insertMode:false}),l=Object.freeze({applicationCursorKeys:false,applicationKeypad:false,bracketedPasteMode:false,cursorBlink:void 0,cursorStyle:void 0,origin:false,reverseWraparound:false,sendFocus:false,synchronizedOutput:false,wraparound:true});let u=class extends o.Disposable{constructor(e,t,s){super(),this._bufferService=e,this._logService=t,this._optionsService=s,this.isCursorInitialized=false,this.isCursorHidden=false,this._onData=this._register(new h.Emitter),this.onData=this._onData.event,this._onUserInput=this._register(new h.Emitter),this.onUserInput=this._onUserInput.event,this._onBinary=this._register(new h.Emitter),this.onBinary=this._onBinary.event,this._onRequestScrollToBottom=this._register(new h.Emitter),this.onRequestScrollToBottom=this._onRequestScrollToBottom.event,this.modes=(0, n.clone)(c),this.decPrivateModes=(0, n.clone)(l);}reset(){this.modes=(0, n.clone)(c),this.decPrivateModes=(0, n.clone)(l);}triggerDataEvent(e,t=false){if(this._optionsService.rawOptions.disableStdin)return;const s=this._bufferService.buffer;t&&this._optionsService.rawOptions.scrollOnUserInput&&s.ybase!==s.ydisp&&this._onRequestScrollToBottom.fire(),t&&this._onUserInput.fire(),this._logService.debug(`sending data "${e}"`),this._logService.trace("sending data (codes)",(()=>e.split("").map((e=>e.charCodeAt(0))))),this._onData.fire(e);}triggerBinaryEvent(e){this._optionsService.rawOptions.disableStdin||(this._logService.debug(`sending binary "${e}"`),this._logService.trace("sending binary (codes)",(()=>e.split("").map((e=>e.charCodeAt(0))))),this._onBinary.fire(e));}};t.CoreService=u,t.CoreService=u=i([r(0,a.IBufferService),r(1,a.ILogService),r(2,a.IOptionsService)],u);},6025:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.InstantiationService=t.ServiceCollection=void 0;const i=s(6501),r=s(6201);class n{constructor(...e){this._entries=new Map;for(const[t,s]of e)this.set(t,s);}set(e,t){const s=this._entries.get(e);return this._entries.set(e,t),s}forEach(e){for(const[t,s]of this._entries.entries())e(t,s);}has(e){return this._entries.has(e)}get(e){return this._entries.get(e)}}t.ServiceCollection=n,t.InstantiationService=class{constructor(){this._services=new n,this._services.set(i.IInstantiationService,this);}setService(e,t){this._services.set(e,t);}getService(e){return this._services.get(e)}createInstance(e,...t){const s=(0, r.getServiceDependencies)(e).sort(((e,t)=>e.index-t.index)),i=[];for(const t of s){const s=this._services.get(t.id);if(!s)throw new Error(`[createInstance] ${e.name} depends on UNKNOWN service ${t.id._id}.`);i.push(s);}const n=s.length>0?s[0].index:t.length;if(t.length!==n)throw new Error(`[createInstance] First service dependency of ${e.name} at position ${n+1} conflicts with ${t.length} static arguments`);return new e(...[...t,...i])}};},7276:function(e,t,s){var i=this&&this.__decorate||function(e,t,s,i){var r,n=arguments.length,o=n<3?t:null===i?i=Object.getOwnPropertyDescriptor(t,s):i;if("object"==typeof Reflect&&"function"==typeof Reflect.decorate)o=Reflect.decorate(e,t,s,i);else for(var a=e.length-1;a>=0;a--)(r=e[a])&&(o=(n<3?r(o):n>3?r(t,s,o):r(t,s))||o);return n>3&&o&&Object.defineProperty(t,s,o),o},r=this&&this.__param||function(e,t){return function(s,i){t(s,i,e);}};Object.defineProperty(t,"__esModule",{value:true}),t.LogService=void 0,t.setTraceLogger=function(e){h=e;},t.traceCall=function(e,t,s){if("function"!=typeof s.value)throw new Error("not supported");const i=s.value;s.value=function(...e){if(h.logLevel!==o.LogLevelEnum.TRACE)return i.apply(this,e);h.trace(`GlyphRenderer#${i.name}(${e.map((e=>JSON.stringify(e))).join(", ")})`);const t=i.apply(this,e);return h.trace(`GlyphRenderer#${i.name} return`,t),t};};const n=s(7150),o=s(6501),a={trace:o.LogLevelEnum.TRACE,debug:o.LogLevelEnum.DEBUG,info:o.LogLevelEnum.INFO,warn:o.LogLevelEnum.WARN,error:o.LogLevelEnum.ERROR,off:o.LogLevelEnum.OFF};let h,c=class extends n.Disposable{get logLevel(){return this._logLevel}constructor(e){super(),this._optionsService=e,this._logLevel=o.LogLevelEnum.OFF,this._updateLogLevel(),this._register(this._optionsService.onSpecificOptionChange("logLevel",(()=>this._updateLogLevel()))),h=this;}_updateLogLevel(){this._logLevel=a[this._optionsService.rawOptions.logLevel];}_evalLazyOptionalParams(e){for(let t=0;t<e.length;t++)"function"==typeof e[t]&&(e[t]=e[t]());}_log(e,t,s){this._evalLazyOptionalParams(s),e.call(console,(this._optionsService.options.logger?"":"xterm.js: ")+t,...s);}trace(e,...t){this._logLevel<=o.LogLevelEnum.TRACE&&this._log(this._optionsService.options.logger?.trace.bind(this._optionsService.options.logger)??console.log,e,t);}debug(e,...t){this._logLevel<=o.LogLevelEnum.DEBUG&&this._log(this._optionsService.options.logger?.debug.bind(this._optionsService.options.logger)??console.log,e,t);}info(e,...t){this._logLevel<=o.LogLevelEnum.INFO&&this._log(this._optionsService.options.logger?.info.bind(this._optionsService.options.logger)??console.info,e,t);}warn(e,...t){this._logLevel<=o.LogLevelEnum.WARN&&this._log(this._optionsService.options.logger?.warn.bind(this._optionsService.options.logger)??console.warn,e,t);}error(e,...t){this._logLevel<=o.LogLevelEnum.ERROR&&this._log(this._optionsService.options.logger?.error.bind(this._optionsService.options.logger)??console.error,e,t);}};t.LogService=c,t.LogService=c=i([r(0,o.IOptionsService)],c);},56:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.OptionsService=t.DEFAULT_OPTIONS=void 0;const i=s(7150),r=s(701),n=s(802);t.DEFAULT_OPTIONS={cols:80,rows:24,cursorBlink:false,cursorStyle:"block",cursorWidth:1,cursorInactiveStyle:"outline",customGlyphs:true,drawBoldTextInBrightColors:true,documentOverride:null,fastScrollModifier:"alt",fastScrollSensitivity:5,fontFamily:"monospace",fontSize:15,fontWeight:"normal",fontWeightBold:"bold",ignoreBracketedPasteMode:false,lineHeight:1,letterSpacing:0,linkHandler:null,logLevel:"info",logger:null,scrollback:1e3,scrollOnEraseInDisplay:false,scrollOnUserInput:true,scrollSensitivity:1,screenReaderMode:false,smoothScrollDuration:0,macOptionIsMeta:false,macOptionClickForcesSelection:false,minimumContrastRatio:1,disableStdin:false,allowProposedApi:false,allowTransparency:false,tabStopWidth:8,theme:{},reflowCursorLine:false,rescaleOverlappingGlyphs:false,rightClickSelectsWord:r.isMac,windowOptions:{},windowsMode:false,windowsPty:{},wordSeparator:" ()[]{}',\"`",altClickMovesCursor:true,convertEol:false,termName:"xterm",cancelEvents:false,overviewRuler:{}};const o=["normal","bold","100","200","300","400","500","600","700","800","900"];class a extends i.Disposable{constructor(e){super(),this._onOptionChange=this._register(new n.Emitter),this.onOptionChange=this._onOptionChange.event;const s={...t.DEFAULT_OPTIONS};for(const t in e)if(t in s)try{const i=e[t];s[t]=this._sanitizeAndValidateOption(t,i);}catch(e){console.error(e);}this.rawOptions=s,this.options={...s},this._setupOptions(),this._register((0, i.toDisposable)((()=>{this.rawOptions.linkHandler=null,this.rawOptions.documentOverride=null;})));}onSpecificOptionChange(e,t){return this.onOptionChange((s=>{s===e&&t(this.rawOptions[e]);}))}onMultipleOptionChange(e,t){return this.onOptionChange((s=>{ -1!==e.indexOf(s)&&t();}))}_setupOptions(){const e=e=>{if(!(e in t.DEFAULT_OPTIONS))throw new Error(`No option with key "${e}"`);return this.rawOptions[e]},s=(e,s)=>{if(!(e in t.DEFAULT_OPTIONS))throw new Error(`No option with key "${e}"`);s=this._sanitizeAndValidateOption(e,s),this.rawOptions[e]!==s&&(this.rawOptions[e]=s,this._onOptionChange.fire(e));};for(const t in this.rawOptions){const i={get:e.bind(this,t),set:s.bind(this,t)};Object.defineProperty(this.options,t,i);}}_sanitizeAndValidateOption(e,s){switch(e){case "cursorStyle":if(s||(s=t.DEFAULT_OPTIONS[e]),!function(e){return "block"===e||"underline"===e||"bar"===e}(s))throw new Error(`"${s}" is not a valid value for ${e}`);break;case "wordSeparator":s||(s=t.DEFAULT_OPTIONS[e]);break;case "fontWeight":case "fontWeightBold":if("number"==typeof s&&1<=s&&s<=1e3)break;s=o.includes(s)?s:t.DEFAULT_OPTIONS[e];break;case "cursorWidth":s=Math.floor(s);case "lineHeight":case "tabStopWidth":if(s<1)throw new Error(`${e} cannot be less than 1, value: ${s}`);break;case "minimumContrastRatio":s=Math.max(1,Math.min(21,Math.round(10*s)/10));break;case "scrollback":if((s=Math.min(s,4294967295))<0)throw new Error(`${e} cannot be less than 0, value: ${s}`);break;case "fastScrollSensitivity":case "scrollSensitivity":if(s<=0)throw new Error(`${e} cannot be less than or equal to 0, value: ${s}`);break;case "rows":case "cols":if(!s&&0!==s)throw new Error(`${e} must be numeric, value: ${s}`);break;case "windowsPty":s=s??{};}return s}}t.OptionsService=a;},8811:function(e,t,s){var i=this&&this.__decorate||function(e,t,s,i){var r,n=arguments.length,o=n<3?t:null===i?i=Object.getOwnPropertyDescriptor(t,s):i;if("object"==typeof Reflect&&"function"==typeof Reflect.decorate)o=Reflect.decorate(e,t,s,i);else for(var a=e.length-1;a>=0;a--)(r=e[a])&&(o=(n<3?r(o):n>3?r(t,s,o):r(t,s))||o);return n>3&&o&&Object.defineProperty(t,s,o),o},r=this&&this.__param||function(e,t){return function(s,i){t(s,i,e);}};Object.defineProperty(t,"__esModule",{value:true}),t.OscLinkService=void 0;const n=s(6501);let o=class{constructor(e){this._bufferService=e,this._nextId=1,this._entriesWithId=new Map,this._dataByLinkId=new Map;}registerLink(e){const t=this._bufferService.buffer;if(void 0===e.id){const s=t.addMarker(t.ybase+t.y),i={data:e,id:this._nextId++,lines:[s]};return s.onDispose((()=>this._removeMarkerFromLink(i,s))),this._dataByLinkId.set(i.id,i),i.id}const s=e,i=this._getEntryIdKey(s),r=this._entriesWithId.get(i);if(r)return this.addLineToLink(r.id,t.ybase+t.y),r.id;const n=t.addMarker(t.ybase+t.y),o={id:this._nextId++,key:this._getEntryIdKey(s),data:s,lines:[n]};return n.onDispose((()=>this._removeMarkerFromLink(o,n))),this._entriesWithId.set(o.key,o),this._dataByLinkId.set(o.id,o),o.id}addLineToLink(e,t){const s=this._dataByLinkId.get(e);if(s&&s.lines.every((e=>e.line!==t))){const e=this._bufferService.buffer.addMarker(t);s.lines.push(e),e.onDispose((()=>this._removeMarkerFromLink(s,e)));}}getLinkData(e){return this._dataByLinkId.get(e)?.data}_getEntryIdKey(e){return `${e.id};;${e.uri}`}_removeMarkerFromLink(e,t){const s=e.lines.indexOf(t);-1!==s&&(e.lines.splice(s,1),0===e.lines.length&&(void 0!==e.data.id&&this._entriesWithId.delete(e.key),this._dataByLinkId.delete(e.id)));}};t.OscLinkService=o,t.OscLinkService=o=i([r(0,n.IBufferService)],o);},6201:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.serviceRegistry=void 0,t.getServiceDependencies=function(e){return e[i]||[]},t.createDecorator=function(e){if(t.serviceRegistry.has(e))return t.serviceRegistry.get(e);const r=function(e,t,n){if(3!==arguments.length)throw new Error("@IServiceName-decorator can only be used to decorate a parameter");!function(e,t,r){t[s]===t?t[i].push({id:e,index:r}):(t[i]=[{id:e,index:r}],t[s]=t);}(r,e,n);};return r._id=e,t.serviceRegistry.set(e,r),r};const s="di$target",i="di$dependencies";t.serviceRegistry=new Map;},6501:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.IDecorationService=t.IUnicodeService=t.IOscLinkService=t.IOptionsService=t.ILogService=t.LogLevelEnum=t.IInstantiationService=t.ICharsetService=t.ICoreService=t.ICoreMouseService=t.IBufferService=void 0;const i=s(6201);var r;t.IBufferService=(0, i.createDecorator)("BufferService"),t.ICoreMouseService=(0, i.createDecorator)("CoreMouseService"),t.ICoreService=(0, i.createDecorator)("CoreService"),t.ICharsetService=(0, i.createDecorator)("CharsetService"),t.IInstantiationService=(0, i.createDecorator)("InstantiationService"),function(e){e[e.TRACE=0]="TRACE",e[e.DEBUG=1]="DEBUG",e[e.INFO=2]="INFO",e[e.WARN=3]="WARN",e[e.ERROR=4]="ERROR",e[e.OFF=5]="OFF";}(r||(t.LogLevelEnum=r={})),t.ILogService=(0, i.createDecorator)("LogService"),t.IOptionsService=(0, i.createDecorator)("OptionsService"),t.IOscLinkService=(0, i.createDecorator)("OscLinkService"),t.IUnicodeService=(0, i.createDecorator)("UnicodeService"),t.IDecorationService=(0, i.createDecorator)("DecorationService");},6415:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.UnicodeService=void 0;const i=s(7428),r=s(802);class n{static extractShouldJoin(e){return !!(1&e)}static extractWidth(e){return e>>1&3}static extractCharKind(e){return e>>3}static createPropertyValue(e,t,s=false){return (16777215&e)<<3|(3&t)<<1|(s?1:0)}constructor(){this._providers=Object.create(null),this._active="",this._onChange=new r.Emitter,this.onChange=this._onChange.event;const e=new i.UnicodeV6;this.register(e),this._active=e.version,this._activeProvider=e;}dispose(){this._onChange.dispose();}get versions(){return Object.keys(this._providers)}get activeVersion(){return this._active}set activeVersion(e){if(!this._providers[e])throw new Error(`unknown Unicode version "${e}"`);this._active=e,this._activeProvider=this._providers[e],this._onChange.fire(e);}register(e){this._providers[e.version]=e;}wcwidth(e){return this._activeProvider.wcwidth(e)}getStringCellWidth(e){let t=0,s=0;const i=e.length;for(let r=0;r<i;++r){let o=e.charCodeAt(r);if(55296<=o&&o<=56319){if(++r>=i)return t+this.wcwidth(o);const s=e.charCodeAt(r);56320<=s&&s<=57343?o=1024*(o-55296)+s-56320+65536:t+=this.wcwidth(s);}const a=this.charProperties(o,s);let h=n.extractWidth(a);n.extractShouldJoin(a)&&(h-=n.extractWidth(s)),t+=h,s=a;}return t}charProperties(e,t){return this._activeProvider.charProperties(e,t)}}t.UnicodeService=n;},5856:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.Terminal=void 0;const i=s(6107),r=s(5777),n=s(802);class o extends r.CoreTerminal{constructor(e={}){super(e),this._onBell=this._register(new n.Emitter),this.onBell=this._onBell.event,this._onCursorMove=this._register(new n.Emitter),this.onCursorMove=this._onCursorMove.event,this._onTitleChange=this._register(new n.Emitter),this.onTitleChange=this._onTitleChange.event,this._onA11yCharEmitter=this._register(new n.Emitter),this.onA11yChar=this._onA11yCharEmitter.event,this._onA11yTabEmitter=this._register(new n.Emitter),this.onA11yTab=this._onA11yTabEmitter.event,this._setup(),this._register(this._inputHandler.onRequestBell((()=>this.bell()))),this._register(this._inputHandler.onRequestReset((()=>this.reset()))),this._register(n.Event.forward(this._inputHandler.onCursorMove,this._onCursorMove)),this._register(n.Event.forward(this._inputHandler.onTitleChange,this._onTitleChange)),this._register(n.Event.forward(this._inputHandler.onA11yChar,this._onA11yCharEmitter)),this._register(n.Event.forward(this._inputHandler.onA11yTab,this._onA11yTabEmitter));}get buffer(){return this.buffers.active}get markers(){return this.buffer.markers}addMarker(e){if(this.buffer===this.buffers.normal)return this.buffer.addMarker(this.buffer.ybase+this.buffer.y+e)}bell(){this._onBell.fire();}input(e,t=true){this.coreService.triggerDataEvent(e,t);}resize(e,t){e===this.cols&&t===this.rows||super.resize(e,t);}clear(){if(0!==this.buffer.ybase||0!==this.buffer.y){this.buffer.lines.set(0,this.buffer.lines.get(this.buffer.ybase+this.buffer.y)),this.buffer.lines.length=1,this.buffer.ydisp=0,this.buffer.ybase=0,this.buffer.y=0;for(let e=1;e<this.rows;e++)this.buffer.lines.push(this.buffer.getBlankLine(i.DEFAULT_ATTR_DATA));this._onScroll.fire({position:this.buffer.ydisp});}}reset(){this.options.rows=this.rows,this.options.cols=this.cols,this._setup(),super.reset();}}t.Terminal=o;},3058:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.Permutation=t.CallbackIterable=t.ArrayQueue=t.booleanComparator=t.numberComparator=t.CompareResult=void 0,t.tail=function(e,t=0){return e[e.length-(1+t)]},t.tail2=function(e){if(0===e.length)throw new Error("Invalid tail call");return [e.slice(0,e.length-1),e[e.length-1]]},t.equals=function(e,t,s=(e,t)=>e===t){if(e===t)return  true;if(!e||!t)return  false;if(e.length!==t.length)return  false;for(let i=0,r=e.length;i<r;i++)if(!s(e[i],t[i]))return  false;return  true},t.removeFastWithoutKeepingOrder=function(e,t){const s=e.length-1;t<s&&(e[t]=e[s]),e.pop();},t.binarySearch=function(e,t,s){return n(e.length,(i=>s(e[i],t)))},t.binarySearch2=n,t.quickSelect=function e(t,s,i){if((t|=0)>=s.length)throw new TypeError("invalid index");const r=s[Math.floor(s.length*Math.random())],n=[],o=[],a=[];for(const e of s){const t=i(e,r);t<0?n.push(e):t>0?o.push(e):a.push(e);}return t<n.length?e(t,n,i):t<n.length+a.length?a[0]:e(t-(n.length+a.length),o,i)},t.groupBy=function(e,t){const s=[];let i;for(const r of e.slice(0).sort(t))i&&0===t(i[0],r)?i.push(r):(i=[r],s.push(i));return s},t.groupAdjacentBy=function*(e,t){let s,i;for(const r of e) void 0!==i&&t(i,r)?s.push(r):(s&&(yield s),s=[r]),i=r;s&&(yield s);},t.forEachAdjacent=function(e,t){for(let s=0;s<=e.length;s++)t(0===s?void 0:e[s-1],s===e.length?void 0:e[s]);},t.forEachWithNeighbors=function(e,t){for(let s=0;s<e.length;s++)t(0===s?void 0:e[s-1],e[s],s+1===e.length?void 0:e[s+1]);},t.sortedDiff=o,t.delta=function(e,t,s){const i=o(e,t,s),r=[],n=[];for(const t of i)r.push(...e.slice(t.start,t.start+t.deleteCount)),n.push(...t.toInsert);return {removed:r,added:n}},t.top=function(e,t,s){if(0===s)return [];const i=e.slice(0,s).sort(t);return a(e,t,i,s,e.length),i},t.topAsync=function(e,t,s,r,n){return 0===s?Promise.resolve([]):new Promise(((o,h)=>{(async()=>{const o=e.length,h=e.slice(0,s).sort(t);for(let c=s,l=Math.min(s+r,o);c<o;c=l,l=Math.min(l+r,o)){if(c>s&&await new Promise((e=>setTimeout(e))),n&&n.isCancellationRequested)throw new i.CancellationError;a(e,t,h,c,l);}return h})().then(o,h);}))},t.coalesce=function(e){return e.filter((e=>!!e))},t.coalesceInPlace=function(e){let t=0;for(let s=0;s<e.length;s++)e[s]&&(e[t]=e[s],t+=1);e.length=t;},t.move=function(e,t,s){e.splice(s,0,e.splice(t,1)[0]);},t.isFalsyOrEmpty=function(e){return !Array.isArray(e)||0===e.length},t.isNonEmptyArray=function(e){return Array.isArray(e)&&e.length>0},t.distinct=function(e,t=e=>e){const s=new Set;return e.filter((e=>{const i=t(e);return !s.has(i)&&(s.add(i),true)}))},t.uniqueFilter=function(e){const t=new Set;return s=>{const i=e(s);return !t.has(i)&&(t.add(i),true)}},t.firstOrDefault=function(e,t){return e.length>0?e[0]:t},t.lastOrDefault=function(e,t){return e.length>0?e[e.length-1]:t},t.commonPrefixLength=function(e,t,s=(e,t)=>e===t){let i=0;for(let r=0,n=Math.min(e.length,t.length);r<n&&s(e[r],t[r]);r++)i++;return i},t.range=function(e,t){let s="number"==typeof t?e:0;"number"==typeof t?s=e:(s=0,t=e);const i=[];if(s<=t)for(let e=s;e<t;e++)i.push(e);else for(let e=s;e>t;e--)i.push(e);return i},t.index=function(e,t,s){return e.reduce(((e,i)=>(e[t(i)]=s?s(i):i,e)),Object.create(null))},t.insert=function(e,t){return e.push(t),()=>h(e,t)},t.remove=h,t.arrayInsert=function(e,t,s){const i=e.slice(0,t),r=e.slice(t);return i.concat(s,r)},t.shuffle=function(e,t){let s;if("number"==typeof t){let e=t;s=()=>{const t=179426549*Math.sin(e++);return t-Math.floor(t)};}else s=Math.random;for(let t=e.length-1;t>0;t-=1){const i=Math.floor(s()*(t+1)),r=e[t];e[t]=e[i],e[i]=r;}},t.pushToStart=function(e,t){const s=e.indexOf(t);s>-1&&(e.splice(s,1),e.unshift(t));},t.pushToEnd=function(e,t){const s=e.indexOf(t);s>-1&&(e.splice(s,1),e.push(t));},t.pushMany=function(e,t){for(const s of t)e.push(s);},t.mapArrayOrNot=function(e,t){return Array.isArray(e)?e.map(t):t(e)},t.asArray=function(e){return Array.isArray(e)?e:[e]},t.getRandomElement=function(e){return e[Math.floor(Math.random()*e.length)]},t.insertInto=c,t.splice=function(e,t,s,i){const r=l(e,t);let n=e.splice(r,s);return void 0===n&&(n=[]),c(e,r,i),n},t.compareBy=function(e,t){return (s,i)=>t(e(s),e(i))},t.tieBreakComparators=function(...e){return (t,s)=>{for(const i of e){const e=i(t,s);if(!u.isNeitherLessOrGreaterThan(e))return e}return u.neitherLessOrGreaterThan}},t.reverseOrder=function(e){return (t,s)=>-e(t,s)};const i=s(9807),r=s(8297);function n(e,t){let s=0,i=e-1;for(;s<=i;){const e=(s+i)/2|0,r=t(e);if(r<0)s=e+1;else {if(!(r>0))return e;i=e-1;}}return -(s+1)}function o(e,t,s){const i=[];function r(e,t,s){if(0===t&&0===s.length)return;const r=i[i.length-1];r&&r.start+r.deleteCount===e?(r.deleteCount+=t,r.toInsert.push(...s)):i.push({start:e,deleteCount:t,toInsert:s});}let n=0,o=0;for(;;){if(n===e.length){r(n,0,t.slice(o));break}if(o===t.length){r(n,e.length-n,[]);break}const i=e[n],a=t[o],h=s(i,a);0===h?(n+=1,o+=1):h<0?(r(n,1,[]),n+=1):h>0&&(r(n,0,[a]),o+=1);}return i}function a(e,t,s,i,n){for(const o=s.length;i<n;i++){const n=e[i];if(t(n,s[o-1])<0){s.pop();const e=(0, r.findFirstIdxMonotonousOrArrLen)(s,(e=>t(n,e)<0));s.splice(e,0,n);}}}function h(e,t){const s=e.indexOf(t);if(s>-1)return e.splice(s,1),t}function c(e,t,s){const i=l(e,t),r=e.length,n=s.length;e.length=r+n;for(let t=r-1;t>=i;t--)e[t+n]=e[t];for(let t=0;t<n;t++)e[t+i]=s[t];}function l(e,t){return t<0?Math.max(t+e.length,0):Math.min(t,e.length)}var u;!function(e){e.isLessThan=function(e){return e<0},e.isLessThanOrEqual=function(e){return e<=0},e.isGreaterThan=function(e){return e>0},e.isNeitherLessOrGreaterThan=function(e){return 0===e},e.greaterThan=1,e.lessThan=-1,e.neitherLessOrGreaterThan=0;}(u||(t.CompareResult=u={})),t.numberComparator=(e,t)=>e-t,t.booleanComparator=(e,s)=>(0, t.numberComparator)(e?1:0,s?1:0),t.ArrayQueue=class{constructor(e){this.items=e,this.firstIdx=0,this.lastIdx=this.items.length-1;}get length(){return this.lastIdx-this.firstIdx+1}takeWhile(e){let t=this.firstIdx;for(;t<this.items.length&&e(this.items[t]);)t++;const s=t===this.firstIdx?null:this.items.slice(this.firstIdx,t);return this.firstIdx=t,s}takeFromEndWhile(e){let t=this.lastIdx;for(;t>=0&&e(this.items[t]);)t--;const s=t===this.lastIdx?null:this.items.slice(t+1,this.lastIdx+1);return this.lastIdx=t,s}peek(){if(0!==this.length)return this.items[this.firstIdx]}peekLast(){if(0!==this.length)return this.items[this.lastIdx]}dequeue(){const e=this.items[this.firstIdx];return this.firstIdx++,e}removeLast(){const e=this.items[this.lastIdx];return this.lastIdx--,e}takeCount(e){const t=this.items.slice(this.firstIdx,this.firstIdx+e);return this.firstIdx+=e,t}};class d{static{this.empty=new d((e=>{}));}constructor(e){this.iterate=e;}forEach(e){this.iterate((t=>(e(t),true)));}toArray(){const e=[];return this.iterate((t=>(e.push(t),true))),e}filter(e){return new d((t=>this.iterate((s=>!e(s)||t(s)))))}map(e){return new d((t=>this.iterate((s=>t(e(s))))))}some(e){let t=false;return this.iterate((s=>(t=e(s),!t))),t}findFirst(e){let t;return this.iterate((s=>!e(s)||(t=s,false))),t}findLast(e){let t;return this.iterate((s=>(e(s)&&(t=s),true))),t}findLastMaxBy(e){let t,s=true;return this.iterate((i=>((s||u.isGreaterThan(e(i,t)))&&(s=false,t=i),true))),t}}t.CallbackIterable=d;class f{constructor(e){this._indexMap=e;}static createSortPermutation(e,t){const s=Array.from(e.keys()).sort(((s,i)=>t(e[s],e[i])));return new f(s)}apply(e){return e.map(((t,s)=>e[this._indexMap[s]]))}inverse(){const e=this._indexMap.slice();for(let t=0;t<this._indexMap.length;t++)e[this._indexMap[t]]=t;return new f(e)}}t.Permutation=f;},8297:(e,t)=>{function s(e,t,s=e.length-1){for(let i=s;i>=0;i--)if(t(e[i]))return i;return  -1}function i(e,t,s=0,i=e.length){let r=s,n=i;for(;r<n;){const s=Math.floor((r+n)/2);t(e[s])?r=s+1:n=s;}return r-1}function r(e,t,s=0,i=e.length){let r=s,n=i;for(;r<n;){const s=Math.floor((r+n)/2);t(e[s])?n=s:r=s+1;}return r}Object.defineProperty(t,"__esModule",{value:true}),t.MonotonousArray=void 0,t.findLast=function(e,t){const i=s(e,t);if(-1!==i)return e[i]},t.findLastIdx=s,t.findLastMonotonous=function(e,t){const s=i(e,t);return  -1===s?void 0:e[s]},t.findLastIdxMonotonous=i,t.findFirstMonotonous=function(e,t){const s=r(e,t);return s===e.length?void 0:e[s]},t.findFirstIdxMonotonousOrArrLen=r,t.findFirstIdxMonotonous=function(e,t,s=0,i=e.length){const n=r(e,t,s,i);return n===e.length?-1:n},t.findFirstMax=o,t.findLastMax=function(e,t){if(0===e.length)return;let s=e[0];for(let i=1;i<e.length;i++){const r=e[i];t(r,s)>=0&&(s=r);}return s},t.findFirstMin=function(e,t){return o(e,((e,s)=>-t(e,s)))},t.findMaxIdx=function(e,t){if(0===e.length)return  -1;let s=0;for(let i=1;i<e.length;i++)t(e[i],e[s])>0&&(s=i);return s},t.mapFindFirst=function(e,t){for(const s of e){const e=t(s);if(void 0!==e)return e}};class n{static{this.assertInvariants=false;}constructor(e){this._array=e,this._findLastMonotonousLastIdx=0;}findLastMonotonous(e){if(n.assertInvariants){if(this._prevFindLastPredicate)for(const t of this._array)if(this._prevFindLastPredicate(t)&&!e(t))throw new Error("MonotonousArray: current predicate must be weaker than (or equal to) the previous predicate.");this._prevFindLastPredicate=e;}const t=i(this._array,e,this._findLastMonotonousLastIdx);return this._findLastMonotonousLastIdx=t+1,-1===t?void 0:this._array[t]}}function o(e,t){if(0===e.length)return;let s=e[0];for(let i=1;i<e.length;i++){const r=e[i];t(r,s)>0&&(s=r);}return s}t.MonotonousArray=n;},9087:(e,t)=>{var s;Object.defineProperty(t,"__esModule",{value:true}),t.SetWithKey=void 0,t.groupBy=function(e,t){const s=Object.create(null);for(const i of e){const e=t(i);let r=s[e];r||(r=s[e]=[]),r.push(i);}return s},t.diffSets=function(e,t){const s=[],i=[];for(const i of e)t.has(i)||s.push(i);for(const s of t)e.has(s)||i.push(s);return {removed:s,added:i}},t.diffMaps=function(e,t){const s=[],i=[];for(const[i,r]of e)t.has(i)||s.push(r);for(const[s,r]of t)e.has(s)||i.push(r);return {removed:s,added:i}},t.intersection=function(e,t){const s=new Set;for(const i of t)e.has(i)&&s.add(i);return s};class i{static{s=Symbol.toStringTag;}constructor(e,t){this.toKey=t,this._map=new Map,this[s]="SetWithKey";for(const t of e)this.add(t);}get size(){return this._map.size}add(e){const t=this.toKey(e);return this._map.set(t,e),this}delete(e){return this._map.delete(this.toKey(e))}has(e){return this._map.has(this.toKey(e))}*entries(){for(const e of this._map.values())yield [e,e];}keys(){return this.values()}*values(){for(const e of this._map.values())yield e;}clear(){this._map.clear();}forEach(e,t){this._map.forEach((s=>e.call(t,s,s,this)));}[Symbol.iterator](){return this.values()}}t.SetWithKey=i;},9807:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.BugIndicatingError=t.ErrorNoTelemetry=t.ExpectedError=t.NotSupportedError=t.NotImplementedError=t.ReadonlyError=t.CancellationError=t.errorHandler=t.ErrorHandler=void 0,t.setUnexpectedErrorHandler=function(e){t.errorHandler.setUnexpectedErrorHandler(e);},t.isSigPipeError=function(e){if(!e||"object"!=typeof e)return  false;const t=e;return "EPIPE"===t.code&&"WRITE"===t.syscall?.toUpperCase()},t.onUnexpectedError=function(e){r(e)||t.errorHandler.onUnexpectedError(e);},t.onUnexpectedExternalError=function(e){r(e)||t.errorHandler.onUnexpectedExternalError(e);},t.transformErrorForSerialization=function(e){if(e instanceof Error){const{name:t,message:s}=e;return {$isError:true,name:t,message:s,stack:e.stacktrace||e.stack,noTelemetry:l.isErrorNoTelemetry(e)}}return e},t.transformErrorFromSerialization=function(e){let t;return e.noTelemetry?t=new l:(t=new Error,t.name=e.name),t.message=e.message,t.stack=e.stack,t},t.isCancellationError=r,t.canceled=function(){const e=new Error(i);return e.name=e.message,e},t.illegalArgument=function(e){return e?new Error(`Illegal argument: ${e}`):new Error("Illegal argument")},t.illegalState=function(e){return e?new Error(`Illegal state: ${e}`):new Error("Illegal state")},t.getErrorMessage=function(e){return e?e.message?e.message:e.stack?e.stack.split("\n")[0]:String(e):"Error"};class s{constructor(){this.listeners=[],this.unexpectedErrorHandler=function(e){setTimeout((()=>{if(e.stack){if(l.isErrorNoTelemetry(e))throw new l(e.message+"\n\n"+e.stack);throw new Error(e.message+"\n\n"+e.stack)}throw e}),0);};}addListener(e){return this.listeners.push(e),()=>{this._removeListener(e);}}emit(e){this.listeners.forEach((t=>{t(e);}));}_removeListener(e){this.listeners.splice(this.listeners.indexOf(e),1);}setUnexpectedErrorHandler(e){this.unexpectedErrorHandler=e;}getUnexpectedErrorHandler(){return this.unexpectedErrorHandler}onUnexpectedError(e){this.unexpectedErrorHandler(e),this.emit(e);}onUnexpectedExternalError(e){this.unexpectedErrorHandler(e);}}t.ErrorHandler=s,t.errorHandler=new s;const i="Canceled";function r(e){return e instanceof n||e instanceof Error&&e.name===i&&e.message===i}class n extends Error{constructor(){super(i),this.name=this.message;}}t.CancellationError=n;class o extends TypeError{constructor(e){super(e?`${e} is read-only and cannot be changed`:"Cannot change read-only property");}}t.ReadonlyError=o;class a extends Error{constructor(e){super("NotImplemented"),e&&(this.message=e);}}t.NotImplementedError=a;class h extends Error{constructor(e){super("NotSupported"),e&&(this.message=e);}}t.NotSupportedError=h;class c extends Error{constructor(){super(...arguments),this.isExpected=true;}}t.ExpectedError=c;class l extends Error{constructor(e){super(e),this.name="CodeExpectedError";}static fromError(e){if(e instanceof l)return e;const t=new l;return t.message=e.message,t.stack=e.stack,t}static isErrorNoTelemetry(e){return "CodeExpectedError"===e.name}}t.ErrorNoTelemetry=l;class u extends Error{constructor(e){super(e||"An unexpected bug occurred."),Object.setPrototypeOf(this,u.prototype);}}t.BugIndicatingError=u;},802:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.ValueWithChangeEvent=t.Relay=t.EventBufferer=t.DynamicListEventMultiplexer=t.EventMultiplexer=t.MicrotaskEmitter=t.DebounceEmitter=t.PauseableEmitter=t.AsyncEmitter=t.createEventDeliveryQueue=t.Emitter=t.ListenerRefusalError=t.ListenerLeakError=t.EventProfiling=t.Event=void 0,t.setGlobalLeakWarningThreshold=function(e){const t=l;return l=e,{dispose(){l=t;}}};const i=s(9807),r=s(8841),n=s(7150),o=s(6317),a=s(9725);var h;!function(e){function t(e){return (t,s=null,i)=>{let r,n=false;return r=e((e=>{if(!n)return r?r.dispose():n=true,t.call(s,e)}),null,i),n&&r.dispose(),r}}function s(e,t,s){return r(((s,i=null,r)=>e((e=>s.call(i,t(e))),null,r)),s)}function i(e,t,s){return r(((s,i=null,r)=>e((e=>t(e)&&s.call(i,e)),null,r)),s)}function r(e,t){let s;const i=new v({onWillAddFirstListener(){s=e(i.fire,i);},onDidRemoveLastListener(){s?.dispose();}});return t?.add(i),i.event}function o(e,t,s=100,i=false,r=false,n,o){let a,h,c,l,u=0;const d=new v({leakWarningThreshold:n,onWillAddFirstListener(){a=e((e=>{u++,h=t(h,e),i&&!c&&(d.fire(h),h=void 0),l=()=>{const e=h;h=void 0,c=void 0,(!i||u>1)&&d.fire(e),u=0;},"number"==typeof s?(clearTimeout(c),c=setTimeout(l,s)):void 0===c&&(c=0,queueMicrotask(l));}));},onWillRemoveListener(){r&&u>0&&l?.();},onDidRemoveLastListener(){l=void 0,a.dispose();}});return o?.add(d),d.event}e.None=()=>n.Disposable.None,e.defer=function(e,t){return o(e,(()=>{}),0,void 0,true,void 0,t)},e.once=t,e.map=s,e.forEach=function(e,t,s){return r(((s,i=null,r)=>e((e=>{t(e),s.call(i,e);}),null,r)),s)},e.filter=i,e.signal=function(e){return e},e.any=function(...e){return (t,s=null,i)=>{return r=(0, n.combinedDisposable)(...e.map((e=>e((e=>t.call(s,e)))))),(o=i)instanceof Array?o.push(r):o&&o.add(r),r;var r,o;}},e.reduce=function(e,t,i,r){let n=i;return s(e,(e=>(n=t(n,e),n)),r)},e.debounce=o,e.accumulate=function(t,s=0,i){return e.debounce(t,((e,t)=>e?(e.push(t),e):[t]),s,void 0,true,void 0,i)},e.latch=function(e,t=(e,t)=>e===t,s){let r,n=true;return i(e,(e=>{const s=n||!t(e,r);return n=false,r=e,s}),s)},e.split=function(t,s,i){return [e.filter(t,s,i),e.filter(t,(e=>!s(e)),i)]},e.buffer=function(e,t=false,s=[],i){let r=s.slice(),n=e((e=>{r?r.push(e):a.fire(e);}));i&&i.add(n);const o=()=>{r?.forEach((e=>a.fire(e))),r=null;},a=new v({onWillAddFirstListener(){n||(n=e((e=>a.fire(e))),i&&i.add(n));},onDidAddFirstListener(){r&&(t?setTimeout(o):o());},onDidRemoveLastListener(){n&&n.dispose(),n=null;}});return i&&i.add(a),a.event},e.chain=function(e,t){return (s,i,r)=>{const n=t(new h);return e((function(e){const t=n.evaluate(e);t!==a&&s.call(i,t);}),void 0,r)}};const a=Symbol("HaltChainable");class h{constructor(){this.steps=[];}map(e){return this.steps.push(e),this}forEach(e){return this.steps.push((t=>(e(t),t))),this}filter(e){return this.steps.push((t=>e(t)?t:a)),this}reduce(e,t){let s=t;return this.steps.push((t=>(s=e(s,t),s))),this}latch(e=(e,t)=>e===t){let t,s=true;return this.steps.push((i=>{const r=s||!e(i,t);return s=false,t=i,r?i:a})),this}evaluate(e){for(const t of this.steps)if((e=t(e))===a)break;return e}}e.fromNodeEventEmitter=function(e,t,s=e=>e){const i=(...e)=>r.fire(s(...e)),r=new v({onWillAddFirstListener:()=>e.on(t,i),onDidRemoveLastListener:()=>e.removeListener(t,i)});return r.event},e.fromDOMEventEmitter=function(e,t,s=e=>e){const i=(...e)=>r.fire(s(...e)),r=new v({onWillAddFirstListener:()=>e.addEventListener(t,i),onDidRemoveLastListener:()=>e.removeEventListener(t,i)});return r.event},e.toPromise=function(e){return new Promise((s=>t(e)(s)))},e.fromPromise=function(e){const t=new v;return e.then((e=>{t.fire(e);}),(()=>{t.fire(void 0);})).finally((()=>{t.dispose();})),t.event},e.forward=function(e,t){return e((e=>t.fire(e)))},e.runAndSubscribe=function(e,t,s){return t(s),e((e=>t(e)))};class c{constructor(e,t){this._observable=e,this._counter=0,this._hasChanged=false;const s={onWillAddFirstListener:()=>{e.addObserver(this);},onDidRemoveLastListener:()=>{e.removeObserver(this);}};this.emitter=new v(s),t&&t.add(this.emitter);}beginUpdate(e){this._counter++;}handlePossibleChange(e){}handleChange(e,t){this._hasChanged=true;}endUpdate(e){this._counter--,0===this._counter&&(this._observable.reportChanges(),this._hasChanged&&(this._hasChanged=false,this.emitter.fire(this._observable.get())));}}e.fromObservable=function(e,t){return new c(e,t).emitter.event},e.fromObservableLight=function(e){return (t,s,i)=>{let r=0,o=false;const a={beginUpdate(){r++;},endUpdate(){r--,0===r&&(e.reportChanges(),o&&(o=false,t.call(s)));},handlePossibleChange(){},handleChange(){o=true;}};e.addObserver(a),e.reportChanges();const h={dispose(){e.removeObserver(a);}};return i instanceof n.DisposableStore?i.add(h):Array.isArray(i)&&i.push(h),h}};}(h||(t.Event=h={}));class c{static{this.all=new Set;}static{this._idPool=0;}constructor(e){this.listenerCount=0,this.invocationCount=0,this.elapsedOverall=0,this.durations=[],this.name=`${e}_${c._idPool++}`,c.all.add(this);}start(e){this._stopWatch=new a.StopWatch,this.listenerCount=e;}stop(){if(this._stopWatch){const e=this._stopWatch.elapsed();this.durations.push(e),this.elapsedOverall+=e,this.invocationCount+=1,this._stopWatch=void 0;}}}t.EventProfiling=c;let l=-1;class u{static{this._idPool=1;}constructor(e,t,s=(u._idPool++).toString(16).padStart(3,"0")){this._errorHandler=e,this.threshold=t,this.name=s,this._warnCountdown=0;}dispose(){this._stacks?.clear();}check(e,t){const s=this.threshold;if(s<=0||t<s)return;this._stacks||(this._stacks=new Map);const i=this._stacks.get(e.value)||0;if(this._stacks.set(e.value,i+1),this._warnCountdown-=1,this._warnCountdown<=0){this._warnCountdown=.5*s;const[e,i]=this.getMostFrequentStack(),r=`[${this.name}] potential listener LEAK detected, having ${t} listeners already. MOST frequent listener (${i}):`;console.warn(r),console.warn(e);const n=new f(r,e);this._errorHandler(n);}return ()=>{const t=this._stacks.get(e.value)||0;this._stacks.set(e.value,t-1);}}getMostFrequentStack(){if(!this._stacks)return;let e,t=0;for(const[s,i]of this._stacks)(!e||t<i)&&(e=[s,i],t=i);return e}}class d{static create(){const e=new Error;return new d(e.stack??"")}constructor(e){this.value=e;}print(){console.warn(this.value.split("\n").slice(2).join("\n"));}}class f extends Error{constructor(e,t){super(e),this.name="ListenerLeakError",this.stack=t;}}t.ListenerLeakError=f;class _ extends Error{constructor(e,t){super(e),this.name="ListenerRefusalError",this.stack=t;}}t.ListenerRefusalError=_;let p=0;class g{constructor(e){this.value=e,this.id=p++;}}class v{constructor(e){this._size=0,this._options=e,this._leakageMon=l>0||this._options?.leakWarningThreshold?new u(e?.onListenerError??i.onUnexpectedError,this._options?.leakWarningThreshold??l):void 0,this._perfMon=this._options?._profName?new c(this._options._profName):void 0,this._deliveryQueue=this._options?.deliveryQueue;}dispose(){this._disposed||(this._disposed=true,this._deliveryQueue?.current===this&&this._deliveryQueue.reset(),this._listeners&&(this._listeners=void 0,this._size=0),this._options?.onDidRemoveLastListener?.(),this._leakageMon?.dispose());}get event(){return this._event??=(e,t,s)=>{if(this._leakageMon&&this._size>this._leakageMon.threshold**2){const e=`[${this._leakageMon.name}] REFUSES to accept new listeners because it exceeded its threshold by far (${this._size} vs ${this._leakageMon.threshold})`;console.warn(e);const t=this._leakageMon.getMostFrequentStack()??["UNKNOWN stack",-1],s=new _(`${e}. HINT: Stack shows most frequent listener (${t[1]}-times)`,t[0]);return (this._options?.onListenerError||i.onUnexpectedError)(s),n.Disposable.None}if(this._disposed)return n.Disposable.None;t&&(e=e.bind(t));const r=new g(e);let o;this._leakageMon&&this._size>=Math.ceil(.2*this._leakageMon.threshold)&&(r.stack=d.create(),o=this._leakageMon.check(r.stack,this._size+1)),this._listeners?this._listeners instanceof g?(this._deliveryQueue??=new m,this._listeners=[this._listeners,r]):this._listeners.push(r):(this._options?.onWillAddFirstListener?.(this),this._listeners=r,this._options?.onDidAddFirstListener?.(this)),this._size++;const a=(0, n.toDisposable)((()=>{o?.(),this._removeListener(r);}));return s instanceof n.DisposableStore?s.add(a):Array.isArray(s)&&s.push(a),a},this._event}_removeListener(e){if(this._options?.onWillRemoveListener?.(this),!this._listeners)return;if(1===this._size)return this._listeners=void 0,this._options?.onDidRemoveLastListener?.(this),void(this._size=0);const t=this._listeners,s=t.indexOf(e);if(-1===s)throw console.log("disposed?",this._disposed),console.log("size?",this._size),console.log("arr?",JSON.stringify(this._listeners)),new Error("Attempted to dispose unknown listener");this._size--,t[s]=void 0;const i=this._deliveryQueue.current===this;if(2*this._size<=t.length){let e=0;for(let s=0;s<t.length;s++)t[s]?t[e++]=t[s]:i&&(this._deliveryQueue.end--,e<this._deliveryQueue.i&&this._deliveryQueue.i--);t.length=e;}}_deliver(e,t){if(!e)return;const s=this._options?.onListenerError||i.onUnexpectedError;if(s)try{e.value(t);}catch(e){s(e);}else e.value(t);}_deliverQueue(e){const t=e.current._listeners;for(;e.i<e.end;)this._deliver(t[e.i++],e.value);e.reset();}fire(e){if(this._deliveryQueue?.current&&(this._deliverQueue(this._deliveryQueue),this._perfMon?.stop()),this._perfMon?.start(this._size),this._listeners)if(this._listeners instanceof g)this._deliver(this._listeners,e);else {const t=this._deliveryQueue;t.enqueue(this,e,this._listeners.length),this._deliverQueue(t);}this._perfMon?.stop();}hasListeners(){return this._size>0}}t.Emitter=v,t.createEventDeliveryQueue=()=>new m;class m{constructor(){this.i=-1,this.end=0;}enqueue(e,t,s){this.i=0,this.end=s,this.current=e,this.value=t;}reset(){this.i=this.end,this.current=void 0,this.value=void 0;}}t.AsyncEmitter=class extends v{async fireAsync(e,t,s){if(this._listeners)for(this._asyncDeliveryQueue||(this._asyncDeliveryQueue=new o.LinkedList),((e,t)=>{if(e instanceof g)t(e);else for(let s=0;s<e.length;s++){const i=e[s];i&&t(i);}})(this._listeners,(t=>this._asyncDeliveryQueue.push([t.value,e])));this._asyncDeliveryQueue.size>0&&!t.isCancellationRequested;){const[e,r]=this._asyncDeliveryQueue.shift(),n=[],o={...r,token:t,waitUntil:t=>{if(Object.isFrozen(n))throw new Error("waitUntil can NOT be called asynchronous");s&&(t=s(t,e)),n.push(t);}};try{e(o);}catch(e){(0, i.onUnexpectedError)(e);continue}Object.freeze(n),await Promise.allSettled(n).then((e=>{for(const t of e)"rejected"===t.status&&(0, i.onUnexpectedError)(t.reason);}));}}};class b extends v{get isPaused(){return 0!==this._isPaused}constructor(e){super(e),this._isPaused=0,this._eventQueue=new o.LinkedList,this._mergeFn=e?.merge;}pause(){this._isPaused++;}resume(){if(0!==this._isPaused&&0==--this._isPaused)if(this._mergeFn){if(this._eventQueue.size>0){const e=Array.from(this._eventQueue);this._eventQueue.clear(),super.fire(this._mergeFn(e));}}else for(;!this._isPaused&&0!==this._eventQueue.size;)super.fire(this._eventQueue.shift());}fire(e){this._size&&(0!==this._isPaused?this._eventQueue.push(e):super.fire(e));}}t.PauseableEmitter=b,t.DebounceEmitter=class extends b{constructor(e){super(e),this._delay=e.delay??100;}fire(e){this._handle||(this.pause(),this._handle=setTimeout((()=>{this._handle=void 0,this.resume();}),this._delay)),super.fire(e);}},t.MicrotaskEmitter=class extends v{constructor(e){super(e),this._queuedEvents=[],this._mergeFn=e?.merge;}fire(e){this.hasListeners()&&(this._queuedEvents.push(e),1===this._queuedEvents.length&&queueMicrotask((()=>{this._mergeFn?super.fire(this._mergeFn(this._queuedEvents)):this._queuedEvents.forEach((e=>super.fire(e))),this._queuedEvents=[];})));}};class S{constructor(){this.hasListeners=false,this.events=[],this.emitter=new v({onWillAddFirstListener:()=>this.onFirstListenerAdd(),onDidRemoveLastListener:()=>this.onLastListenerRemove()});}get event(){return this.emitter.event}add(e){const t={event:e,listener:null};return this.events.push(t),this.hasListeners&&this.hook(t),(0, n.toDisposable)((0, r.createSingleCallFunction)((()=>{this.hasListeners&&this.unhook(t);const e=this.events.indexOf(t);this.events.splice(e,1);})))}onFirstListenerAdd(){this.hasListeners=true,this.events.forEach((e=>this.hook(e)));}onLastListenerRemove(){this.hasListeners=false,this.events.forEach((e=>this.unhook(e)));}hook(e){e.listener=e.event((e=>this.emitter.fire(e)));}unhook(e){e.listener?.dispose(),e.listener=null;}dispose(){this.emitter.dispose();for(const e of this.events)e.listener?.dispose();this.events=[];}}t.EventMultiplexer=S,t.DynamicListEventMultiplexer=class{constructor(e,t,s,i){this._store=new n.DisposableStore;const r=this._store.add(new S),o=this._store.add(new n.DisposableMap);function a(e){o.set(e,r.add(i(e)));}for(const t of e)a(t);this._store.add(t((e=>{a(e);}))),this._store.add(s((e=>{o.deleteAndDispose(e);}))),this.event=r.event;}dispose(){this._store.dispose();}},t.EventBufferer=class{constructor(){this.data=[];}wrapEvent(e,t,s){return (i,r,n)=>e((e=>{const n=this.data[this.data.length-1];if(!t)return void(n?n.buffers.push((()=>i.call(r,e))):i.call(r,e));const o=n;o?(o.items??=[],o.items.push(e),0===o.buffers.length&&n.buffers.push((()=>{o.reducedResult??=s?o.items.reduce(t,s):o.items.reduce(t),i.call(r,o.reducedResult);}))):i.call(r,t(s,e));}),void 0,n)}bufferEvents(e){const t={buffers:new Array};this.data.push(t);const s=e();return this.data.pop(),t.buffers.forEach((e=>e())),s}},t.Relay=class{constructor(){this.listening=false,this.inputEvent=h.None,this.inputEventListener=n.Disposable.None,this.emitter=new v({onDidAddFirstListener:()=>{this.listening=true,this.inputEventListener=this.inputEvent(this.emitter.fire,this.emitter);},onDidRemoveLastListener:()=>{this.listening=false,this.inputEventListener.dispose();}}),this.event=this.emitter.event;}set input(e){this.inputEvent=e,this.listening&&(this.inputEventListener.dispose(),this.inputEventListener=e(this.emitter.fire,this.emitter));}dispose(){this.inputEventListener.dispose(),this.emitter.dispose();}},t.ValueWithChangeEvent=class{static const(e){return new y(e)}constructor(e){this._value=e,this._onDidChange=new v,this.onDidChange=this._onDidChange.event;}get value(){return this._value}set value(e){e!==this._value&&(this._value=e,this._onDidChange.fire(void 0));}};class y{constructor(e){this.value=e,this.onDidChange=h.None;}}},8841:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.createSingleCallFunction=function(e,t){const s=this;let i,r=false;return function(){if(r)return i;if(r=true,t)try{i=e.apply(s,arguments);}finally{t();}else i=e.apply(s,arguments);return i}};},4218:(e,t)=>{var s;Object.defineProperty(t,"__esModule",{value:true}),t.Iterable=void 0,function(e){function t(e){return e&&"object"==typeof e&&"function"==typeof e[Symbol.iterator]}e.is=t;const s=Object.freeze([]);function*i(e){yield e;}e.empty=function(){return s},e.single=i,e.wrap=function(e){return t(e)?e:i(e)},e.from=function(e){return e||s},e.reverse=function*(e){for(let t=e.length-1;t>=0;t--)yield e[t];},e.isEmpty=function(e){return !e||true===e[Symbol.iterator]().next().done},e.first=function(e){return e[Symbol.iterator]().next().value},e.some=function(e,t){let s=0;for(const i of e)if(t(i,s++))return  true;return  false},e.find=function(e,t){for(const s of e)if(t(s))return s},e.filter=function*(e,t){for(const s of e)t(s)&&(yield s);},e.map=function*(e,t){let s=0;for(const i of e)yield t(i,s++);},e.flatMap=function*(e,t){let s=0;for(const i of e)yield*t(i,s++);},e.concat=function*(...e){for(const t of e)yield*t;},e.reduce=function(e,t,s){let i=s;for(const s of e)i=t(i,s);return i},e.slice=function*(e,t,s=e.length){for(t<0&&(t+=e.length),s<0?s+=e.length:s>e.length&&(s=e.length);t<s;t++)yield e[t];},e.consume=function(t,s=Number.POSITIVE_INFINITY){const i=[];if(0===s)return [i,t];const r=t[Symbol.iterator]();for(let t=0;t<s;t++){const t=r.next();if(t.done)return [i,e.empty()];i.push(t.value);}return [i,{[Symbol.iterator]:()=>r}]},e.asyncToArray=async function(e){const t=[];for await(const s of e)t.push(s);return Promise.resolve(t)};}(s||(t.Iterable=s={}));},7150:(e,t,s)=>{Object.defineProperty(t,"__esModule",{value:true}),t.DisposableMap=t.ImmortalReference=t.AsyncReferenceCollection=t.ReferenceCollection=t.SafeDisposable=t.RefCountedDisposable=t.MandatoryMutableDisposable=t.MutableDisposable=t.Disposable=t.DisposableStore=t.DisposableTracker=void 0,t.setDisposableTracker=function(e){h=e;},t.trackDisposable=l,t.markAsDisposed=u,t.markAsSingleton=function(e){return h?.markAsSingleton(e),e},t.isDisposable=f,t.dispose=_,t.disposeIfDisposable=function(e){for(const t of e)f(t)&&t.dispose();return []},t.combinedDisposable=function(...e){const t=p((()=>_(e)));return function(e,t){if(h)for(const s of e)h.setParent(s,t);}(e,t),t},t.toDisposable=p,t.disposeOnReturn=function(e){const t=new g;try{e(t);}finally{t.dispose();}};const i=s(3058),r=s(9087),n=s(2608),o=s(8841),a=s(4218);let h=null;class c{constructor(){this.livingDisposables=new Map;}static{this.idx=0;}getDisposableData(e){let t=this.livingDisposables.get(e);return t||(t={parent:null,source:null,isSingleton:false,value:e,idx:c.idx++},this.livingDisposables.set(e,t)),t}trackDisposable(e){const t=this.getDisposableData(e);t.source||(t.source=(new Error).stack);}setParent(e,t){this.getDisposableData(e).parent=t;}markAsDisposed(e){this.livingDisposables.delete(e);}markAsSingleton(e){this.getDisposableData(e).isSingleton=true;}getRootParent(e,t){const s=t.get(e);if(s)return s;const i=e.parent?this.getRootParent(this.getDisposableData(e.parent),t):e;return t.set(e,i),i}getTrackedDisposables(){const e=new Map;return [...this.livingDisposables.entries()].filter((([,t])=>null!==t.source&&!this.getRootParent(t,e).isSingleton)).flatMap((([e])=>e))}computeLeakingDisposables(e=10,t){let s;if(t)s=t;else {const e=new Map,t=[...this.livingDisposables.values()].filter((t=>null!==t.source&&!this.getRootParent(t,e).isSingleton));if(0===t.length)return;const i=new Set(t.map((e=>e.value)));if(s=t.filter((e=>!(e.parent&&i.has(e.parent)))),0===s.length)throw new Error("There are cyclic diposable chains!")}if(!s)return;function o(e){const t=e.source.split("\n").map((e=>e.trim().replace("at ",""))).filter((e=>""!==e));return function(e,t){for(;e.length>0&&t.some((t=>"string"==typeof t?t===e[0]:e[0].match(t)));)e.shift();}(t,["Error",/^trackDisposable \(.*\)$/,/^DisposableTracker.trackDisposable \(.*\)$/]),t.reverse()}const a=new n.SetMap;for(const e of s){const t=o(e);for(let s=0;s<=t.length;s++)a.add(t.slice(0,s).join("\n"),e);}s.sort((0, i.compareBy)((e=>e.idx),i.numberComparator));let h="",c=0;for(const t of s.slice(0,e)){c++;const e=o(t),i=[];for(let t=0;t<e.length;t++){let n=e[t];n=`(shared with ${a.get(e.slice(0,t+1).join("\n")).size}/${s.length} leaks) at ${n}`;const h=a.get(e.slice(0,t).join("\n")),c=(0, r.groupBy)([...h].map((e=>o(e)[t])),(e=>e));delete c[e[t]];for(const[e,t]of Object.entries(c))i.unshift(`    - stacktraces of ${t.length} other leaks continue with ${e}`);i.unshift(n);}h+=`\n\n\n==================== Leaking disposable ${c}/${s.length}: ${t.value.constructor.name} ====================\n${i.join("\n")}\n============================================================\n\n`;}return s.length>e&&(h+=`\n\n\n... and ${s.length-e} more leaking disposables\n\n`),{leaks:s,details:h}}}function l(e){return h?.trackDisposable(e),e}function u(e){h?.markAsDisposed(e);}function d(e,t){h?.setParent(e,t);}function f(e){return "object"==typeof e&&null!==e&&"function"==typeof e.dispose&&0===e.dispose.length}function _(e){if(a.Iterable.is(e)){const t=[];for(const s of e)if(s)try{s.dispose();}catch(e){t.push(e);}if(1===t.length)throw t[0];if(t.length>1)throw new AggregateError(t,"Encountered errors while disposing of store");return Array.isArray(e)?[]:e}if(e)return e.dispose(),e}function p(e){const t=l({dispose:(0, o.createSingleCallFunction)((()=>{u(t),e();}))});return t}t.DisposableTracker=c;class g{static{this.DISABLE_DISPOSED_WARNING=false;}constructor(){this._toDispose=new Set,this._isDisposed=false,l(this);}dispose(){this._isDisposed||(u(this),this._isDisposed=true,this.clear());}get isDisposed(){return this._isDisposed}clear(){if(0!==this._toDispose.size)try{_(this._toDispose);}finally{this._toDispose.clear();}}add(e){if(!e)return e;if(e===this)throw new Error("Cannot register a disposable on itself!");return d(e,this),this._isDisposed?g.DISABLE_DISPOSED_WARNING||console.warn(new Error("Trying to add a disposable to a DisposableStore that has already been disposed of. The added object will be leaked!").stack):this._toDispose.add(e),e}delete(e){if(e){if(e===this)throw new Error("Cannot dispose a disposable on itself!");this._toDispose.delete(e),e.dispose();}}deleteAndLeak(e){e&&this._toDispose.has(e)&&(this._toDispose.delete(e),d(e,null));}}t.DisposableStore=g;class v{static{this.None=Object.freeze({dispose(){}});}constructor(){this._store=new g,l(this),d(this._store,this);}dispose(){u(this),this._store.dispose();}_register(e){if(e===this)throw new Error("Cannot register a disposable on itself!");return this._store.add(e)}}t.Disposable=v;class m{constructor(){this._isDisposed=false,l(this);}get value(){return this._isDisposed?void 0:this._value}set value(e){this._isDisposed||e===this._value||(this._value?.dispose(),e&&d(e,this),this._value=e);}clear(){this.value=void 0;}dispose(){this._isDisposed=true,u(this),this._value?.dispose(),this._value=void 0;}clearAndLeak(){const e=this._value;return this._value=void 0,e&&d(e,null),e}}t.MutableDisposable=m,t.MandatoryMutableDisposable=class{constructor(e){this._disposable=new m,this._isDisposed=false,this._disposable.value=e;}get value(){return this._disposable.value}set value(e){this._isDisposed||e===this._disposable.value||(this._disposable.value=e);}dispose(){this._isDisposed=true,this._disposable.dispose();}},t.RefCountedDisposable=class{constructor(e){this._disposable=e,this._counter=1;}acquire(){return this._counter++,this}release(){return 0==--this._counter&&this._disposable.dispose(),this}},t.SafeDisposable=class{constructor(){this.dispose=()=>{},this.unset=()=>{},this.isset=()=>false,l(this);}set(e){let t=e;return this.unset=()=>t=void 0,this.isset=()=>void 0!==t,this.dispose=()=>{t&&(t(),t=void 0,u(this));},this}},t.ReferenceCollection=class{constructor(){this.references=new Map;}acquire(e,...t){let s=this.references.get(e);s||(s={counter:0,object:this.createReferencedObject(e,...t)},this.references.set(e,s));const{object:i}=s,r=(0, o.createSingleCallFunction)((()=>{0==--s.counter&&(this.destroyReferencedObject(e,s.object),this.references.delete(e));}));return s.counter++,{object:i,dispose:r}}},t.AsyncReferenceCollection=class{constructor(e){this.referenceCollection=e;}async acquire(e,...t){const s=this.referenceCollection.acquire(e,...t);try{return {object:await s.object,dispose:()=>s.dispose()}}catch(e){throw s.dispose(),e}}},t.ImmortalReference=class{constructor(e){this.object=e;}dispose(){}};class b{constructor(){this._store=new Map,this._isDisposed=false,l(this);}dispose(){u(this),this._isDisposed=true,this.clearAndDisposeAll();}clearAndDisposeAll(){if(this._store.size)try{_(this._store.values());}finally{this._store.clear();}}has(e){return this._store.has(e)}get size(){return this._store.size}get(e){return this._store.get(e)}set(e,t,s=false){this._isDisposed&&console.warn(new Error("Trying to add a disposable to a DisposableMap that has already been disposed of. The added object will be leaked!").stack),s||this._store.get(e)?.dispose(),this._store.set(e,t);}deleteAndDispose(e){this._store.get(e)?.dispose(),this._store.delete(e);}deleteAndLeak(e){const t=this._store.get(e);return this._store.delete(e),t}keys(){return this._store.keys()}values(){return this._store.values()}[Symbol.iterator](){return this._store[Symbol.iterator]()}}t.DisposableMap=b;},6317:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.LinkedList=void 0;class s{static{this.Undefined=new s(void 0);}constructor(e){this.element=e,this.next=s.Undefined,this.prev=s.Undefined;}}class i{constructor(){this._first=s.Undefined,this._last=s.Undefined,this._size=0;}get size(){return this._size}isEmpty(){return this._first===s.Undefined}clear(){let e=this._first;for(;e!==s.Undefined;){const t=e.next;e.prev=s.Undefined,e.next=s.Undefined,e=t;}this._first=s.Undefined,this._last=s.Undefined,this._size=0;}unshift(e){return this._insert(e,false)}push(e){return this._insert(e,true)}_insert(e,t){const i=new s(e);if(this._first===s.Undefined)this._first=i,this._last=i;else if(t){const e=this._last;this._last=i,i.prev=e,e.next=i;}else {const e=this._first;this._first=i,i.next=e,e.prev=i;}this._size+=1;let r=false;return ()=>{r||(r=true,this._remove(i));}}shift(){if(this._first!==s.Undefined){const e=this._first.element;return this._remove(this._first),e}}pop(){if(this._last!==s.Undefined){const e=this._last.element;return this._remove(this._last),e}}_remove(e){if(e.prev!==s.Undefined&&e.next!==s.Undefined){const t=e.prev;t.next=e.next,e.next.prev=t;}else e.prev===s.Undefined&&e.next===s.Undefined?(this._first=s.Undefined,this._last=s.Undefined):e.next===s.Undefined?(this._last=this._last.prev,this._last.next=s.Undefined):e.prev===s.Undefined&&(this._first=this._first.next,this._first.prev=s.Undefined);this._size-=1;}*[Symbol.iterator](){let e=this._first;for(;e!==s.Undefined;)yield e.element,e=e.next;}}t.LinkedList=i;},2608:(e,t)=>{var s;Object.defineProperty(t,"__esModule",{value:true}),t.SetMap=t.BidirectionalMap=t.CounterSet=t.Touch=void 0,t.getOrSet=function(e,t,s){let i=e.get(t);return void 0===i&&(i=s,e.set(t,i)),i},t.mapToString=function(e){const t=[];return e.forEach(((e,s)=>{t.push(`${s} => ${e}`);})),`Map(${e.size}) {${t.join(", ")}}`},t.setToString=function(e){const t=[];return e.forEach((e=>{t.push(e);})),`Set(${e.size}) {${t.join(", ")}}`},t.mapsStrictEqualIgnoreOrder=function(e,t){if(e===t)return  true;if(e.size!==t.size)return  false;for(const[s,i]of e)if(!t.has(s)||t.get(s)!==i)return  false;for(const[s]of t)if(!e.has(s))return  false;return  true},function(e){e[e.None=0]="None",e[e.AsOld=1]="AsOld",e[e.AsNew=2]="AsNew";}(s||(t.Touch=s={})),t.CounterSet=class{constructor(){this.map=new Map;}add(e){return this.map.set(e,(this.map.get(e)||0)+1),this}delete(e){let t=this.map.get(e)||0;return 0!==t&&(t--,0===t?this.map.delete(e):this.map.set(e,t),true)}has(e){return this.map.has(e)}},t.BidirectionalMap=class{constructor(e){if(this._m1=new Map,this._m2=new Map,e)for(const[t,s]of e)this.set(t,s);}clear(){this._m1.clear(),this._m2.clear();}set(e,t){this._m1.set(e,t),this._m2.set(t,e);}get(e){return this._m1.get(e)}getKey(e){return this._m2.get(e)}delete(e){const t=this._m1.get(e);return void 0!==t&&(this._m1.delete(e),this._m2.delete(t),true)}forEach(e,t){this._m1.forEach(((s,i)=>{e.call(t,s,i,this);}));}keys(){return this._m1.keys()}values(){return this._m1.values()}},t.SetMap=class{constructor(){this.map=new Map;}add(e,t){let s=this.map.get(e);s||(s=new Set,this.map.set(e,s)),s.add(t);}delete(e,t){const s=this.map.get(e);s&&(s.delete(t),0===s.size&&this.map.delete(e));}forEach(e,t){const s=this.map.get(e);s&&s.forEach(t);}get(e){return this.map.get(e)||new Set}};},9725:(e,t)=>{Object.defineProperty(t,"__esModule",{value:true}),t.StopWatch=void 0;const s=globalThis.performance&&"function"==typeof globalThis.performance.now;class i{static create(e){return new i(e)}constructor(e){this._now=s&&false===e?Date.now:globalThis.performance.now.bind(globalThis.performance),this._startTime=this._now(),this._stopTime=-1;}stop(){this._stopTime=this._now();}reset(){this._startTime=this._now(),this._stopTime=-1;}elapsed(){return  -1!==this._stopTime?this._stopTime-this._startTime:this._now()-this._startTime}}t.StopWatch=i;}},t={};function s(i){var r=t[i];if(void 0!==r)return r.exports;var n=t[i]={exports:{}};return e[i].call(n.exports,n,n.exports,s),n.exports}var i={};(()=>{var e=i;Object.defineProperty(e,"__esModule",{value:true}),e.Terminal=void 0;const t=s(5101),r=s(6097),n=s(4335),o=s(5856),a=s(3027),h=s(7150),c=["cols","rows"];class l extends h.Disposable{constructor(e){super(),this._core=this._register(new o.Terminal(e)),this._addonManager=this._register(new a.AddonManager),this._publicOptions={...this._core.options};const t=e=>this._core.options[e],s=(e,t)=>{this._checkReadonlyOptions(e),this._core.options[e]=t;};for(const e in this._core.options){Object.defineProperty(this._publicOptions,e,{get:()=>this._core.options[e],set:t=>{this._checkReadonlyOptions(e),this._core.options[e]=t;}});const i={get:t.bind(this,e),set:s.bind(this,e)};Object.defineProperty(this._publicOptions,e,i);}}_checkReadonlyOptions(e){if(c.includes(e))throw new Error(`Option "${e}" can only be set in the constructor`)}_checkProposedApi(){if(!this._core.optionsService.options.allowProposedApi)throw new Error("You must set the allowProposedApi option to true to use proposed API")}get onBell(){return this._core.onBell}get onBinary(){return this._core.onBinary}get onCursorMove(){return this._core.onCursorMove}get onData(){return this._core.onData}get onLineFeed(){return this._core.onLineFeed}get onResize(){return this._core.onResize}get onScroll(){return this._core.onScroll}get onTitleChange(){return this._core.onTitleChange}get onWriteParsed(){return this._core.onWriteParsed}get parser(){return this._checkProposedApi(),this._parser||(this._parser=new r.ParserApi(this._core)),this._parser}get unicode(){return this._checkProposedApi(),new n.UnicodeApi(this._core)}get rows(){return this._core.rows}get cols(){return this._core.cols}get buffer(){return this._checkProposedApi(),this._buffer||(this._buffer=this._register(new t.BufferNamespaceApi(this._core))),this._buffer}get markers(){return this._checkProposedApi(),this._core.markers}get modes(){const e=this._core.coreService.decPrivateModes;let t="none";switch(this._core.coreMouseService.activeProtocol){case "X10":t="x10";break;case "VT200":t="vt200";break;case "DRAG":t="drag";break;case "ANY":t="any";}return {applicationCursorKeysMode:e.applicationCursorKeys,applicationKeypadMode:e.applicationKeypad,bracketedPasteMode:e.bracketedPasteMode,insertMode:this._core.coreService.modes.insertMode,mouseTrackingMode:t,originMode:e.origin,reverseWraparoundMode:e.reverseWraparound,sendFocusMode:e.sendFocus,synchronizedOutputMode:e.synchronizedOutput,wraparoundMode:e.wraparound}}get options(){return this._publicOptions}set options(e){for(const t in e)this._publicOptions[t]=e[t];}input(e,t=true){this._core.input(e,t);}resize(e,t){this._verifyIntegers(e,t),this._core.resize(e,t);}registerMarker(e=0){return this._checkProposedApi(),this._verifyIntegers(e),this._core.addMarker(e)}addMarker(e){return this.registerMarker(e)}dispose(){super.dispose();}scrollLines(e){this._verifyIntegers(e),this._core.scrollLines(e);}scrollPages(e){this._verifyIntegers(e),this._core.scrollPages(e);}scrollToTop(){this._core.scrollToTop();}scrollToBottom(){this._core.scrollToBottom();}scrollToLine(e){this._verifyIntegers(e),this._core.scrollToLine(e);}clear(){this._core.clear();}write(e,t){this._core.write(e,t);}writeln(e,t){this._core.write(e),this._core.write("\r\n",t);}reset(){this._core.reset();}loadAddon(e){this._addonManager.loadAddon(this,e);}_verifyIntegers(...e){for(const t of e)if(t===1/0||isNaN(t)||t%1!=0)throw new Error("This API only accepts integers")}}e.Terminal=l;})();var r=exports;for(var n in i)r[n]=i[n];i.__esModule&&Object.defineProperty(r,"__esModule",{value:true});})();
		
	} (xtermHeadless));
	return xtermHeadless;
}

var xtermHeadlessExports = requireXtermHeadless();
var xterm = /*@__PURE__*/getDefaultExportFromCjs(xtermHeadlessExports);

// What the agent's output looks like to a person: a rendered terminal screen for PTY sessions (TUIs
// redraw in place, so the raw byte stream is not what is on screen) and plain lines for pipe sessions.
/**
 * xterm throws once 50 MB are queued unparsed. Well before that, chunks are left out of the rendering
 * (the transcript keeps them): detection on a screen that is megabytes behind is meaningless anyway.
 */
const MAX_UNPARSED_BYTES = 16 * 1024 * 1024;
/**
 * Rendering costs more CPU per byte than reading the PTY. In a flood (more than FEED_BUDGET bytes
 * within FEED_WINDOW_MS) only the last FLOOD_TAIL bytes of the rest of the window are rendered: everything
 * before it would have scrolled off the screen before the next detection scan anyway, and the
 * transcript keeps every byte. Interactive output never comes close to this rate. Once a window had to
 * be thinned, the next ones get no budget of their own (only their tail is rendered) until output
 * slows down: a budget rendered at the start of every window of a flood is scrolled away unseen.
 */
const FEED_WINDOW_MS = 50;
const FEED_BUDGET = 64 * 1024;
/** What is rendered of a thinned flood at the end of a window: far more than a screenful. */
const FLOOD_TAIL = 32 * 1024;
/** Switches between the normal and the alternate screen; the last one in skipped bytes is replayed. */
const SCREEN_SWITCHES = ['\x1b[?1049h', '\x1b[?1049l', '\x1b[?1047h', '\x1b[?1047l', '\x1b[?47h', '\x1b[?47l'];
/** Every switch starts with CSI ?, so one backward search finds the candidates. */
const PRIVATE_CSI = '\x1b[?';
const LONGEST_SWITCH = Math.max(...SCREEN_SWITCHES.map((s) => s.length));
/**
 * The last screen switch in bytes that are skipped. This runs over every byte of a flood, so it makes
 * one backward pass (searching for each switch separately made it the costliest step of a flood).
 */
function lastScreenSwitch(bytes) {
    let at = bytes.lastIndexOf(PRIVATE_CSI, undefined, 'latin1');
    while (at !== -1) {
        const text = bytes.toString('latin1', at, at + LONGEST_SWITCH);
        const found = SCREEN_SWITCHES.find((seq) => text.startsWith(seq));
        if (found)
            return found;
        at = at === 0 ? -1 : bytes.lastIndexOf(PRIVATE_CSI, at - 1, 'latin1');
    }
    return null;
}
/** Where to start rendering a thinned flood: after a line break, so no character or sequence is cut. */
function tailStart(bytes, keep) {
    const from = bytes.length - keep;
    const nl = bytes.indexOf(0x0a, from);
    return nl === -1 || nl === bytes.length - 1 ? from : nl + 1;
}
/**
 * Reports and stop hooks read the last 40 lines; the transcript has everything else. Each scrollback
 * line is a live object of 12 bytes per column, and filling 1000 of them in a flood made the screen
 * the largest part of proctor's memory (about 10 MB more peak RSS than 200 lines).
 */
const DEFAULT_SCROLLBACK = 200;
/** A headless xterm fed with the raw PTY output. */
class RenderedScreen {
    kind = 'screen';
    cols;
    rows;
    term;
    onParsed;
    unparsedBytes = 0;
    pendingWrites = 0;
    waiters = [];
    skipped = 0;
    disposed = false;
    windowStart = -Infinity;
    fedInWindow = 0;
    /** The last window was thinned: until a quiet window, only tails are rendered. */
    flooding = false;
    thinned = false;
    held = [];
    heldBytes = 0;
    heldSwitch = null;
    heldTimer = null;
    trimmed = 0;
    trimSource = null;
    trimSubscription = null;
    constructor(opts) {
        this.cols = opts.cols;
        this.rows = opts.rows;
        this.onParsed = opts.onParsed;
        this.term = new xterm.Terminal({
            cols: opts.cols,
            rows: opts.rows,
            scrollback: opts.scrollback ?? DEFAULT_SCROLLBACK,
            allowProposedApi: true,
        });
    }
    /** Bytes left out of the rendering (flood thinning, or xterm too far behind). */
    get skippedBytes() {
        return this.skipped;
    }
    /** Follows a PTY resize so the rendering wraps where the agent's terminal does. */
    resize(cols, rows) {
        if (this.disposed || (cols === this.cols && rows === this.rows))
            return;
        // Held output was written before the resize, so it is rendered at the old size.
        this.releaseHeld();
        this.cols = cols;
        this.rows = rows;
        this.term.resize(cols, rows);
    }
    /** Which buffer is showing: full-screen TUIs switch to the alternate one (no scrollback). */
    get bufferType() {
        return this.term.buffer.active.type;
    }
    write(chunk) {
        if (this.disposed || chunk.length === 0)
            return;
        const now = performance.now();
        if (now - this.windowStart >= FEED_WINDOW_MS && this.held.length === 0) {
            // A whole window went by without output to hold: whatever flood there was is over.
            this.windowStart = now;
            this.fedInWindow = 0;
            this.flooding = false;
        }
        const budget = this.flooding ? 0 : FEED_BUDGET;
        if (this.held.length === 0 && this.fedInWindow + chunk.length <= budget)
            this.feed(chunk);
        else
            this.hold(chunk);
    }
    feed(chunk) {
        this.fedInWindow += chunk.length;
        if (this.unparsedBytes + chunk.length > MAX_UNPARSED_BYTES) {
            this.skipped += chunk.length;
            return;
        }
        this.unparsedBytes += chunk.length;
        this.pendingWrites++;
        this.term.write(chunk, () => {
            this.followTrims();
            this.unparsedBytes -= chunk.length;
            this.pendingWrites--;
            if (this.pendingWrites === 0)
                this.releaseWaiters();
            this.onParsed?.();
        });
    }
    flush() {
        this.releaseHeld();
        if (this.pendingWrites === 0 || this.disposed)
            return Promise.resolve();
        return new Promise((resolve) => this.waiters.push(resolve));
    }
    /** Over budget in this window: keep the chunk for the window's end, bounded to about one budget. */
    hold(chunk) {
        this.held.push(chunk);
        this.heldBytes += chunk.length;
        while (this.held.length > 1 && this.heldBytes - this.held[0].length >= FLOOD_TAIL) {
            const dropped = this.held.shift();
            this.heldBytes -= dropped.length;
            this.skipped += dropped.length;
            this.thinned = true;
            this.heldSwitch =
                lastScreenSwitch(Buffer.from(dropped.buffer, dropped.byteOffset, dropped.length)) ?? this.heldSwitch;
        }
        if (!this.heldTimer) {
            const wait = Math.max(1, FEED_WINDOW_MS - (performance.now() - this.windowStart));
            this.heldTimer = setTimeout(() => this.releaseHeld(), wait);
            this.heldTimer.unref();
        }
    }
    /** Renders the tail of what was held (from a line start), after the last screen switch it skipped. */
    releaseHeld() {
        if (this.heldTimer) {
            clearTimeout(this.heldTimer);
            this.heldTimer = null;
        }
        if (this.held.length === 0 || this.disposed)
            return;
        const data = Buffer.concat(this.held);
        this.held = [];
        this.heldBytes = 0;
        const start = data.length > FLOOD_TAIL ? tailStart(data, FLOOD_TAIL) : 0;
        if (start > 0) {
            this.skipped += start;
            this.heldSwitch = lastScreenSwitch(data.subarray(0, start)) ?? this.heldSwitch;
        }
        this.flooding = this.thinned || start > 0;
        this.thinned = false;
        const prefix = this.heldSwitch;
        this.heldSwitch = null;
        this.windowStart = performance.now();
        this.fedInWindow = 0;
        if (prefix)
            this.feed(Buffer.from(prefix, 'latin1'));
        this.feed(data.subarray(start));
    }
    /** The logical lines on the visible screen, for matching. */
    screenLines() {
        this.followTrims();
        const buffer = this.term.buffer.active;
        const top = buffer.baseY;
        const trimmed = buffer.type === 'normal' ? this.trimmed : 0;
        const out = [];
        for (let row = 0; row < this.rows; row++) {
            const line = buffer.getLine(top + row);
            if (!line)
                break;
            const text = line.translateToString(true);
            const last = out[out.length - 1];
            if (line.isWrapped && last)
                last.text += text;
            else
                out.push({ text, line: top + row + trimmed, row });
        }
        for (const l of out)
            l.text = l.text.trimEnd();
        return out;
    }
    visibleLines() {
        const buffer = this.term.buffer.active;
        const lines = [];
        for (let row = 0; row < this.rows; row++) {
            lines.push(buffer
                .getLine(buffer.baseY + row)
                ?.translateToString(true)
                .trimEnd() ?? '');
        }
        return lines;
    }
    visibleText() {
        return this.visibleLines().join('\n');
    }
    tailText(lines) {
        const buffer = this.term.buffer.active;
        let end = buffer.baseY + this.rows;
        while (end > 0 &&
            !buffer
                .getLine(end - 1)
                ?.translateToString(true)
                .trim())
            end--;
        const out = [];
        for (let y = Math.max(0, end - Math.max(0, lines)); y < end; y++) {
            out.push(buffer.getLine(y)?.translateToString(true).trimEnd() ?? '');
        }
        return out.join('\n');
    }
    dispose() {
        if (this.disposed)
            return;
        this.disposed = true;
        if (this.heldTimer)
            clearTimeout(this.heldTimer);
        this.held = [];
        this.trimSubscription?.dispose();
        this.term.dispose();
        this.releaseWaiters();
    }
    /**
     * Counts lines trimmed off the top of the normal buffer once the scrollback is full, so line
     * identities stay put while content scrolls. xterm's public API has no trim event; its buffer's
     * internal one is used when present (a terminal reset replaces the buffer, so it is re-attached).
     * Without it, identities are exact until the scrollback fills.
     */
    followTrims() {
        const lines = this.term._core?.buffers?.normal?.lines;
        if (!lines || lines === this.trimSource || typeof lines.onTrim !== 'function')
            return;
        this.trimSubscription?.dispose();
        this.trimSource = lines;
        this.trimSubscription = lines.onTrim((n) => (this.trimmed += n));
    }
    releaseWaiters() {
        const waiters = this.waiters;
        this.waiters = [];
        for (const resolve of waiters)
            resolve();
    }
}
/** An escape sequence still open at the end of a chunk: kept for the next chunk. */
const OPEN_ESCAPE = /\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|\]|[PX^_][^\x1b]*(?:\x1b)?|[ -/]*)?$/;
/** An unterminated OSC/DCS longer than this is garbage, not a sequence worth waiting for. */
const MAX_OPEN_ESCAPE = 4096;
/**
 * Pipe output is split into lines as it comes, up to FLOOD_BUDGET_BYTES per FLOOD_WINDOW_MS; beyond that
 * (and in every window after one that went beyond it) only the last FLOOD_TAIL_BYTES are: decoding and
 * splitting 25 MB of a build log line by line cost proctor more CPU than reading it, which slowed the
 * agent writing it to a quarter of a plain pipe's speed.
 */
const FLOOD_WINDOW_MS = 50;
const FLOOD_BUDGET_BYTES = 256 * 1024;
const FLOOD_TAIL_BYTES = 64 * 1024;
/**
 * Lines of a pipe session: UTF-8 decoded (invalid bytes become U+FFFD), escape sequences removed, the
 * last `keepLines` kept. A line that never ends (10 MB without a newline) keeps only its last
 * `maxLineChars` characters, so memory and matching stay bounded.
 */
class LineView {
    kind = 'lines';
    decoder = new TextDecoder('utf-8', { fatal: false });
    keepLines;
    maxLineChars;
    trackPending;
    maxPendingChars;
    pendingChars = 0;
    /** Ring of the last completed lines. */
    kept = [];
    keptStart = 0;
    pending = [];
    skipped = 0;
    current = '';
    currentTouched = false;
    carry = '';
    nextSeq = 0;
    /** Flood thinning (see write()): the current window, and whether this one or the last was a flood. */
    windowStart = -Infinity;
    windowBytes = 0;
    floodedNow = false;
    floodedLast = false;
    deferred = [];
    deferredBytes = 0;
    /** The dropped bytes began a line: the next newline ends it, skipped. */
    lost = false;
    floodTail;
    constructor(opts = {}) {
        this.keepLines = Math.max(1, opts.keepLines ?? 500);
        this.maxLineChars = Math.max(80, opts.maxLineChars ?? 4096);
        this.trackPending = opts.trackPending ?? true;
        this.maxPendingChars = Math.max(this.maxLineChars, opts.maxPendingChars ?? 4 * 1024 * 1024);
        this.floodTail = Math.max(FLOOD_TAIL_BYTES, 4 * this.maxLineChars);
    }
    /** Completed lines never shown to the detector because it fell too far behind. */
    get skippedLines() {
        this.settleFlood();
        return this.skipped;
    }
    write(chunk) {
        const now = performance.now();
        if (now - this.windowStart >= FLOOD_WINDOW_MS) {
            this.windowStart = now;
            this.windowBytes = 0;
            this.floodedLast = this.floodedNow;
            this.floodedNow = false;
            this.settleFlood();
        }
        this.windowBytes += chunk.length;
        const budget = this.floodedLast ? 0 : FLOOD_BUDGET_BYTES;
        if (this.deferred.length === 0 && this.windowBytes <= budget) {
            this.process(chunk);
            return;
        }
        // A flood: the bytes wait, and only the last floodTail of them is ever decoded and split into lines
        // (at the next window, or when anything reads the view). What comes before is counted as skipped
        // lines (a newline byte is never part of a UTF-8 sequence, so no decoding is needed to count them):
        // the transcript has every byte; the detector sees the end of the flood, where a prompt would be.
        this.deferred.push(chunk);
        this.deferredBytes += chunk.length;
        while (this.deferredBytes - this.deferred[0].length >= this.floodTail) {
            const first = this.deferred.shift();
            this.deferredBytes -= first.length;
            this.drop(first);
            this.floodedNow = true;
        }
    }
    /** Decodes what a flood left waiting: the end of its output. */
    settleFlood() {
        if (this.deferred.length === 0)
            return;
        let bytes = Buffer.concat(this.deferred);
        this.deferred = [];
        this.deferredBytes = 0;
        if (this.lost) {
            // The line the dropped bytes began: skipped to its end. A line with no end in sight keeps its end
            // (as any line longer than maxLineChars does), so a prompt at the end of a flood is still seen.
            this.lost = false;
            const nl = bytes.indexOf(0x0a);
            if (nl !== -1) {
                this.skipLines(1);
                bytes = bytes.subarray(nl + 1);
            }
        }
        if (bytes.length > 0)
            this.process(bytes);
    }
    /** Bytes a flood left out: their lines are counted as skipped, never decoded. */
    drop(bytes) {
        let count = 0;
        for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1))
            count++;
        this.skipLines(count);
        // The bytes after the last newline began a line whose start is gone: it is skipped to its end.
        if (count > 0)
            this.lost = true;
    }
    /** `count` lines ended unseen; the line in progress (if any) is cut off. */
    skipLines(count) {
        this.current = '';
        this.currentTouched = false;
        this.carry = '';
        this.decoder.decode(); // drops a half-received character
        if (count === 0)
            return;
        this.nextSeq += count;
        this.skipped += count;
        // What is kept is the end of the output: lines from before the gap would read as if they led up to it.
        this.kept.length = 0;
        this.keptStart = 0;
    }
    process(chunk) {
        let text = this.carry + this.decoder.decode(chunk, { stream: true });
        this.carry = '';
        const esc = text.lastIndexOf('\x1b');
        if (esc !== -1 && text.length - esc <= MAX_OPEN_ESCAPE) {
            const open = OPEN_ESCAPE.exec(text.slice(esc));
            if (open && open.index === 0) {
                this.carry = text.slice(esc);
                text = text.slice(0, esc);
            }
        }
        // "\r" may be the first half of "\r\n": wait for the next chunk to tell a line end from a return.
        if (text.endsWith('\r')) {
            this.carry = '\r' + this.carry;
            text = text.slice(0, -1);
        }
        this.consume(stripTerminal(text));
    }
    flush() {
        return Promise.resolve();
    }
    /** Lines the detector has not seen yet, then the current unfinished line (seen again until it ends). */
    takeLines() {
        this.settleFlood();
        const out = this.pending;
        this.pending = [];
        this.pendingChars = 0;
        if (this.current || this.currentTouched) {
            out.push({ seq: this.nextSeq, text: this.current, complete: false });
        }
        return out;
    }
    visibleLines() {
        this.settleFlood();
        const lines = this.keptLines();
        if (this.current)
            lines.push(this.current);
        return lines.map((l) => l.trimEnd());
    }
    visibleText() {
        return this.visibleLines().join('\n');
    }
    tailText(lines) {
        const all = this.visibleLines();
        while (all.length > 0 && all[all.length - 1] === '')
            all.pop();
        return all.slice(Math.max(0, all.length - Math.max(0, lines))).join('\n');
    }
    dispose() {
        this.pending = [];
        this.deferred = [];
        this.deferredBytes = 0;
    }
    consume(text) {
        let start = 0;
        for (;;) {
            const nl = text.indexOf('\n', start);
            if (nl === -1)
                break;
            let end = nl;
            while (end > start && text.charCodeAt(end - 1) === 13)
                end--;
            this.appendToCurrent(text.slice(start, end));
            this.endLine();
            start = nl + 1;
        }
        if (start < text.length)
            this.appendToCurrent(text.slice(start));
    }
    appendToCurrent(piece) {
        // A carriage return starts the line over (progress bars); what was there is overwritten.
        const cr = piece.lastIndexOf('\r');
        if (cr !== -1) {
            this.current = '';
            piece = piece.slice(cr + 1);
        }
        this.currentTouched = true;
        this.current += piece.length > this.maxLineChars ? piece.slice(piece.length - this.maxLineChars) : piece;
        // Trim in halves so a long line costs amortized O(1) per character, not a copy per chunk.
        if (this.current.length > 2 * this.maxLineChars)
            this.current = this.current.slice(-this.maxLineChars);
    }
    endLine() {
        let line = this.current;
        if (line.length > this.maxLineChars)
            line = line.slice(-this.maxLineChars);
        this.current = '';
        this.currentTouched = false;
        const seq = this.nextSeq++;
        if (this.trackPending) {
            if (this.pendingChars > this.maxPendingChars)
                this.dropOlderHalf();
            this.pending.push({ seq, text: line, complete: true });
            this.pendingChars += line.length + 1;
        }
        if (this.kept.length < this.keepLines)
            this.kept.push(line);
        else {
            this.kept[this.keptStart] = line;
            this.keptStart = (this.keptStart + 1) % this.keepLines;
        }
    }
    /** Drops the older half at once: dropping one line at a time would be quadratic in a flood. */
    dropOlderHalf() {
        const drop = Math.ceil(this.pending.length / 2);
        for (let i = 0; i < drop; i++)
            this.pendingChars -= this.pending[i].text.length + 1;
        this.skipped += drop;
        this.pending = this.pending.slice(drop);
    }
    keptLines() {
        return [...this.kept.slice(this.keptStart), ...this.kept.slice(0, this.keptStart)];
    }
}

// The output side of a supervised process: every raw chunk goes to the transcript, the in-memory tail
// and the rendered view; detectors run on the view, coalesced, and raise events. No processes here —
// the caller feeds chunks and acts on the events (send keys, stop...).
const DEFAULT_SETTLE_MS = 10;
const DEFAULT_MAX_DELAY_MS = 50;
class OutputPipeline extends EventEmitter {
    mode;
    transcript;
    buffer;
    view;
    detector;
    clock;
    settleMs;
    maxDelayMs;
    timer = null;
    /** When the first change not yet scanned happened, and the latest one. */
    dirtySince = null;
    lastChange = 0;
    lastOutput = null;
    totalBytes = 0;
    closing = null;
    deadlineTimer = null;
    paste = new BracketedPasteTracker();
    /** Throws DetectRuleError when a rule is unusable (bad regex, conflicting responses). */
    constructor(opts) {
        super();
        this.mode = opts.mode;
        this.clock = opts.clock ?? Date.now;
        this.settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
        this.maxDelayMs = Math.max(this.settleMs, opts.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
        this.detector = new Detector(compileRules(opts.rules ?? [], opts.presets ?? []), this.clock);
        this.detector.onSlowRule = (rule, ms) => this.emit('slow_rule', rule, ms);
        this.buffer = new RingBuffer(opts.bufferBytes);
        // The transcript may throw (its directory cannot be created): before anything needs disposing.
        this.transcript = new Transcript(opts.transcriptPath, opts.transcriptMax);
        this.transcript.on('capped', (max) => this.emit('capped', max));
        this.view =
            opts.mode === 'pty'
                ? new RenderedScreen({
                    cols: opts.cols ?? 120,
                    rows: opts.rows ?? 40,
                    // A PTY screen changes when xterm has parsed the bytes, not when they arrive.
                    onParsed: () => this.markDirty(),
                })
                : new LineView({ trackPending: !this.detector.isEmpty });
    }
    /** When the agent last produced output (clock ms), for idle timeouts; null before the first byte. */
    get lastOutputAt() {
        return this.lastOutput;
    }
    /** Bytes received so far (including any beyond the transcript cap). */
    get bytes() {
        return this.totalBytes;
    }
    /**
     * Takes one raw chunk, in arrival order. Every byte is on its way to disk when this returns (see
     * Transcript); the rendered screen may keep a reference to the chunk until it is parsed, so the
     * caller must not reuse the buffer. Chunks after close() are ignored.
     *
     * No copies and no per-chunk allocations here: in a flood this runs thousands of times a second,
     * and whatever it allocates is garbage the process carries until the next collection.
     */
    write(chunk) {
        if (this.closing || chunk.length === 0)
            return;
        this.totalBytes += chunk.length;
        this.lastOutput = this.clock();
        this.buffer.append(chunk);
        this.transcript.write(chunk);
        this.view.write(chunk);
        this.paste.write(chunk);
        if (this.view.kind === 'lines')
            this.markDirty();
    }
    /** The agent has turned on bracketed paste (ESC[?2004h, not turned off since): pasted text is one input. */
    get bracketedPaste() {
        return this.paste.enabled;
    }
    /** proctor is about to type into the agent: completions already on screen are old (see Detector.markTyped). */
    markTyped() {
        this.detector.markTyped();
    }
    /** Resolves once everything written so far is rendered and has been through the detectors. */
    async flush() {
        await this.view.flush();
        this.scan();
    }
    /** Call when the PTY is resized: the rendered screen must match the agent's terminal. */
    resize(cols, rows) {
        if (this.view instanceof RenderedScreen)
            this.view.resize(cols, rows);
    }
    /** The last rendered lines of output (for reports and the stop hooks' final_text). Not sanitized. */
    tailText(lines = 40) {
        return this.view.tailText(lines);
    }
    /** Flushes, runs the detectors one last time, closes the transcript. Idempotent. */
    close() {
        this.closing ??= (async () => {
            if (this.deadlineTimer)
                clearTimeout(this.deadlineTimer);
            await this.view.flush();
            this.scan();
            const summary = await this.transcript.close();
            // The view stays readable after close: reports still ask for tailText().
            return summary;
        })();
        return this.closing;
    }
    markDirty() {
        if (this.detector.isEmpty)
            return;
        const now = performance.now();
        this.lastChange = now;
        if (this.dirtySince === null)
            this.dirtySince = now;
        if (!this.timer)
            this.schedule(this.settleMs);
    }
    schedule(ms) {
        this.timer = setTimeout(() => this.onTimer(), ms);
        // Pending detection must not keep a finished process alive.
        this.timer.unref();
    }
    /**
     * Debounce with a ceiling: one timer per quiet period, re-armed (not re-created per chunk) while
     * output keeps coming, so a fast stream costs a scan every maxDelayMs rather than one per chunk.
     */
    onTimer() {
        this.timer = null;
        if (this.dirtySince === null)
            return;
        const now = performance.now();
        const quietFor = now - this.lastChange;
        const waitedFor = now - this.dirtySince;
        if (quietFor < this.settleMs && waitedFor < this.maxDelayMs) {
            this.schedule(Math.min(this.settleMs - quietFor, this.maxDelayMs - waitedFor));
            return;
        }
        this.scan();
    }
    scan() {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = null;
        }
        this.dirtySince = null;
        if (this.detector.isEmpty)
            return;
        const view = this.view;
        const events = view instanceof RenderedScreen
            ? this.detector.scanScreen(view)
            : this.detector.scanLines(view.takeLines());
        for (const event of events)
            this.emit('event', event);
        this.scheduleDeadline();
        this.emit('scanned');
    }
    /** A delayed or repeated answer falls due even when the screen does not change: scan then. */
    scheduleDeadline() {
        if (this.deadlineTimer)
            clearTimeout(this.deadlineTimer);
        this.deadlineTimer = null;
        const due = this.detector.nextDeadline();
        if (due === null || this.closing)
            return;
        this.deadlineTimer = setTimeout(() => {
            this.deadlineTimer = null;
            if (!this.closing)
                this.scan();
        }, Math.max(1, due - this.clock()));
        this.deadlineTimer.unref();
    }
}
const PASTE_ON = Buffer.from('\x1b[?2004h', 'latin1');
const PASTE_OFF = Buffer.from('\x1b[?2004l', 'latin1');
const EMPTY = Buffer.alloc(0);
/** Follows DEC mode 2004 (bracketed paste) in the raw output, including a sequence split across chunks. */
class BracketedPasteTracker {
    enabled = false;
    tail = EMPTY;
    write(chunk) {
        // No ESC in this chunk nor in the previous one's last bytes: no sequence can start or end here, and
        // a one-byte search (memchr) is far cheaper than two searches for a sequence over every chunk.
        if (chunk.indexOf(0x1b) === -1 && this.tail.indexOf(0x1b) === -1) {
            this.tail = EMPTY;
            return;
        }
        // Only the boundary needs a copy: the last bytes of the previous chunk and the first of this one.
        const edge = this.tail.length > 0 ? Buffer.concat([this.tail, chunk.subarray(0, PASTE_ON.length - 1)]) : null;
        let on = chunk.lastIndexOf(PASTE_ON);
        let off = chunk.lastIndexOf(PASTE_OFF);
        if (on === -1 && off === -1 && edge) {
            on = edge.lastIndexOf(PASTE_ON);
            off = edge.lastIndexOf(PASTE_OFF);
        }
        if (on !== -1 || off !== -1)
            this.enabled = on > off;
        this.tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (PASTE_ON.length - 1))));
    }
}

// Private index files left by sessions that crashed (SIGKILL, OOM): <git dir>/proctor/index-<session>,
// its .commit/.lock companions, and the throwaway indexes of `checkpoints` commands and restores. Each is
// as big as the repository's index, so they are removed when nobody can be using them any more.
/** A file this recent may belong to a session that is still starting up (no run record yet). */
const STALE_INDEX_AGE_MS = 10 * 60 * 1000;
/**
 * Deletes private index files in `dir` (the `proctor/` directory under the git dir) that no live
 * process owns: session indexes whose session is not in `liveSessions`, and per-process indexes
 * (`cli-<pid>`, `restore-<pid>-…`, `restore-index-<pid>-…`) whose process is gone; never one touched in
 * the last STALE_INDEX_AGE_MS. Returns the names removed.
 */
function removeStaleIndexes(dir, liveSessions, now = Date.now()) {
    let names;
    try {
        names = fs__default.readdirSync(dir);
    }
    catch {
        return [];
    }
    const removed = [];
    for (const name of names) {
        const base = name.replace(/\.(commit|lock)$/, '').replace(/\.commit\.lock$/, '');
        const session = /^index-(.+)$/.exec(base)?.[1];
        const pid = /^(?:cli|restore|restore-index)-(\d+)(?:-[0-9a-f]+)?$/.exec(base)?.[1];
        if (session === undefined && pid === undefined)
            continue;
        if (session !== undefined && liveSessions.has(session))
            continue;
        if (pid !== undefined && Number(pid) !== process.pid && pidExists(Number(pid)))
            continue;
        if (pid !== undefined && Number(pid) === process.pid)
            continue;
        const file = path.join(dir, name);
        try {
            if (now - fs__default.statSync(file).mtimeMs < STALE_INDEX_AGE_MS)
                continue;
            fs__default.rmSync(file, { force: true });
            removed.push(name);
        }
        catch {
            // Gone meanwhile, or not ours to remove.
        }
    }
    return removed;
}
/** removeStaleIndexes for the repository at `cwd` (nothing outside a repository). */
async function removeStaleRepoIndexes(cwd, liveSessions) {
    return removeStaleIndexes(await proctorGitPath(cwd), liveSessions);
}
/**
 * `<git dir>/proctor`. In a repository whose `.git` is a directory (not a linked worktree, submodule or
 * a gitdir file) that is `.git/proctor`, read without starting git: each git process forks proctor,
 * which blocks its event loop while an agent's output waits to be read.
 */
async function proctorGitPath(cwd) {
    const root = findRepoRoot(cwd);
    if (root) {
        const dotGit = path.join(root, '.git');
        try {
            if (fs__default.lstatSync(dotGit).isDirectory())
                return path.join(dotGit, 'proctor');
        }
        catch {
            // Gone meanwhile: ask git.
        }
    }
    return new Git({ cwd }).gitPath('proctor');
}

// SIGINT/SIGTERM to proctor: finalize once (stop the agent, last checkpoint, report), whatever
// else arrives meanwhile. The runner's cancel sends SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s
// after that, so repeats must never restart or abort the finalizer.
/**
 * Installs SIGINT/SIGTERM listeners. The first signal runs `handler(signal)` once; later ones are
 * reported to `onRepeat` and otherwise ignored (installing a listener also stops Node's default
 * exit on that signal). Exit codes (130 / 143) are the caller's. Returns an uninstall function.
 */
function installShutdownSignals(handler, options = {}) {
    let first;
    const listeners = new Map();
    for (const signal of ['SIGINT', 'SIGTERM']) {
        const listener = () => {
            if (first !== undefined) {
                options.onRepeat?.(signal);
                return;
            }
            first = signal;
            handler(signal).catch((error) => options.onError?.(error, signal));
        };
        listeners.set(signal, listener);
        process.on(signal, listener);
    }
    return () => {
        for (const [signal, listener] of listeners)
            process.off(signal, listener);
        listeners.clear();
    };
}
/** The conventional exit code for a process ended by `signal` (128 + signal number). */
function exitCodeForSignal(signal) {
    return signal === 'SIGINT' ? 130 : 143;
}

/** Caps a violation's text: a reason must stay readable inside one typed prompt. */
const MAX_REASON_CHARS = 600;
function line(v) {
    const text = `${v.message}. ${v.suggestion}`;
    return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}
/** The `policy` gate's reasons, labelled like a stop hook's ("policy: …"). */
function policyReasons(blocking) {
    return blocking.map((v) => `policy: ${v.severity} ${v.constraint}: ${line(v)}`);
}
/** Warnings sent back along with a blocked stop; they do not block by themselves. */
function warningReasons(warnings) {
    return warnings.map((v) => `policy warning (${v.constraint}, does not block): ${line(v)}`);
}
/** One line for an interactive agent's prompt: no control characters, capped, ending with Enter. */
function typedNotice(warnings, maxChars = 4000) {
    const text = typedText(`proctor: policy warnings about your changes (they do not stop you; please fix them): ${warnings
        .map((v) => `[${v.constraint}] ${line(v)}`)
        .join(' ')}`, maxChars);
    return `${text}\r`;
}

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** `text` must already be one line without control characters (see typedPrompt). */
async function typeAndSubmit(target, pipeline, text, typing, signal) {
    pipeline.markTyped();
    const bracketed = typing.paste === 'always' || (typing.paste === 'auto' && pipeline.bracketedPaste);
    target.write(bracketed ? `${PASTE_START}${text}${PASTE_END}` : text);
    await delay(typing.submit_delay, signal);
    const activity = () => (pipeline.detector.hasWorkingRules ? pipeline.detector.workingSeen : pipeline.bytes);
    let attempts = 0;
    while (attempts < typing.submit_attempts && !signal?.aborted) {
        const before = activity();
        attempts++;
        target.write('\r');
        if (await until(pipeline, () => activity() !== before, typing.confirm_timeout, signal))
            return { bracketed, attempts, reacted: true };
    }
    return { bracketed, attempts, reacted: false };
}
function delay(ms, signal) {
    if (ms <= 0 || signal?.aborted)
        return Promise.resolve();
    return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
    });
}
/** Resolves true as soon as `test` holds after a scan of the output, false after `timeoutMs`. */
function until(pipeline, test, timeoutMs, signal) {
    if (test())
        return Promise.resolve(true);
    return new Promise((resolve) => {
        const finish = (value) => {
            clearTimeout(timer);
            pipeline.off('scanned', check);
            signal?.removeEventListener('abort', abort);
            resolve(value);
        };
        const check = () => {
            if (test())
                finish(true);
        };
        const abort = () => finish(false);
        const timer = setTimeout(() => finish(test()), timeoutMs);
        pipeline.on('scanned', check);
        signal?.addEventListener('abort', abort, { once: true });
    });
}

// Ending an interactive agent once the session is decided. A TUI left at its prompt would wait until the
// total timeout, so proctor first asks it to exit the way a person would (agent.quit, e.g. "/exit" and
// Enter: the agent saves its session and restores the terminal), and stops it the hard way (SIGTERM, grace,
// SIGKILL) only if it is still running after `graceMs`.
async function quitAgent(target, keys, { submitDelayMs, graceMs }) {
    if (keys) {
        // A final Enter goes as its own write, like typed reasons: a TUI may take one long write for a paste.
        const enter = keys.length > 1 && keys.endsWith('\r');
        const text = enter ? keys.slice(0, -1) : keys;
        let delivered = (await target.write(text)).delivered;
        if (delivered && enter) {
            await setTimeout$1(submitDelayMs);
            delivered = (await target.write('\r')).delivered;
        }
        if (delivered && (await exitsWithin(target.finished, graceMs)))
            return { graceful: true };
    }
    void target.stop('requested');
    return { graceful: false };
}
function exitsWithin(finished, ms) {
    return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        void finished.then(() => {
            clearTimeout(timer);
            resolve(true);
        });
    });
}

// Session ids name the checkpoint ref and branch, so they must be valid in a git ref and unique per run.
// In GitHub Actions they carry run id, attempt and job so re-runs and matrix jobs never collide.
function makeSessionId(env = process.env, now = new Date()) {
    const explicit = env.PROCTOR_SESSION_ID?.trim();
    if (explicit)
        return sanitizeRefPart(explicit);
    if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_RUN_ID) {
        const parts = [env.GITHUB_RUN_ID, env.GITHUB_RUN_ATTEMPT ?? '1', env.GITHUB_JOB ?? 'job'];
        if (env.PROCTOR_MATRIX_KEY)
            parts.push(env.PROCTOR_MATRIX_KEY);
        return sanitizeRefPart(parts.join('-'));
    }
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return `${stamp}-${randomBytes(3).toString('hex')}`;
}
/** Keeps what `git check-ref-format` accepts in one component. */
function sanitizeRefPart(value) {
    const cleaned = value
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/\.{2,}/g, '.')
        .replace(/^[.-]+|[.-]+$/g, '')
        .replace(/\.lock$/i, '-lock')
        .slice(0, 100);
    return cleaned || 'session';
}

// Watches a worktree for the checkpoint triggers: one non-recursive fs.watch (one inotify watch) per
// directory, nothing per file. The triggers only need "which paths changed" (git decides what changed
// at checkpoint time), so no stat of every file is kept. Measured on a 10,000-file tree: chokidar's
// initial scan took seconds and about 110 MiB; this walk takes a fraction of a second and a few MiB, and
// it runs in the background (it yields between directories), so it never delays the agent.
class TreeWatcher {
    options;
    watchers = new Map();
    queue = Promise.resolve();
    closed = false;
    constructor(options) {
        this.options = options;
    }
    /** Watches every directory under the root; resolves when the walk is done (or the watcher closed). */
    async start() {
        await this.watchTree('', false);
    }
    close() {
        this.closed = true;
        for (const watcher of this.watchers.values())
            watcher.close();
        this.watchers.clear();
    }
    /** Watch `dir` and every directory below it; with `report`, its files are new (a directory created late). */
    async watchTree(dir, report) {
        const pending = [dir];
        while (pending.length > 0 && !this.closed) {
            const current = pending.shift();
            if (this.watchers.has(current) || !this.watch(current))
                continue;
            let entries;
            try {
                entries = await fs__default.promises.readdir(this.abs(current), { withFileTypes: true });
            }
            catch {
                continue; // gone again, or unreadable: nothing to watch there
            }
            for (const entry of entries) {
                const rel = current ? `${current}/${entry.name}` : entry.name;
                if (this.options.ignored(rel))
                    continue;
                if (entry.isDirectory()) {
                    pending.push(rel);
                    if (report)
                        this.options.onEvent('addDir', rel);
                }
                else if (report) {
                    this.options.onEvent('add', rel);
                }
            }
        }
    }
    watch(dir) {
        if (this.closed)
            return false;
        try {
            const watcher = fs__default.watch(this.abs(dir), { persistent: true }, (type, name) => {
                const rel = name ? (dir ? `${dir}/${name.toString()}` : name.toString()) : dir;
                if (rel && !this.options.ignored(rel))
                    this.enqueue(type, rel);
            });
            watcher.on('error', (error) => {
                this.forget(dir);
                if (error.code !== 'ENOENT')
                    this.options.onError(error);
            });
            this.watchers.set(dir, watcher);
            return true;
        }
        catch (error) {
            // ENOSPC (inotify limit) or a directory that vanished: counting is a hint, checkpoints still see it.
            if (error.code !== 'ENOENT')
                this.options.onError(error);
            return false;
        }
    }
    /** Events are classified one after another, so the log keeps their order (add before unlink). */
    enqueue(type, rel) {
        this.queue = this.queue.then(() => this.classify(type, rel));
    }
    async classify(type, rel) {
        if (this.closed)
            return;
        const stat = await fs__default.promises.lstat(this.abs(rel)).catch(() => null);
        if (this.closed)
            return;
        if (!stat) {
            if (this.watchers.has(rel)) {
                this.forget(rel);
                this.options.onEvent('unlinkDir', rel);
            }
            else {
                this.options.onEvent('unlink', rel);
            }
        }
        else if (stat.isDirectory()) {
            if (!this.watchers.has(rel)) {
                this.options.onEvent('addDir', rel);
                await this.watchTree(rel, true);
            }
        }
        else {
            this.options.onEvent(type === 'rename' ? 'add' : 'change', rel);
        }
    }
    /** Stop watching a directory that is gone, and everything that was below it. */
    forget(dir) {
        for (const [key, watcher] of this.watchers) {
            if (key === dir || key.startsWith(`${dir}/`)) {
                watcher.close();
                this.watchers.delete(key);
            }
        }
    }
    abs(rel) {
        return rel ? path.join(this.options.root, rel) : this.options.root;
    }
}

// When to take a checkpoint: every `interval`, after `max_changes` distinct paths changed (a watcher
// counts them; git decides what actually changed when the checkpoint runs), on detector
// events, at the end (`final`) and on demand (`manual`). Every file event goes to an audit log.
const ALWAYS_IGNORED = new Set(['.git', STATE_DIR_NAME, 'node_modules']);
class CheckpointTriggers {
    options;
    watcher = null;
    timer = null;
    changed = new Set();
    unchecked = new Set();
    checking = null;
    inFlight = null;
    log = null;
    ignoredDirs = [];
    stopped = false;
    watching = Promise.resolve();
    constructor(options) {
        this.options = options;
    }
    /** Distinct paths changed since the last checkpoint started (as the watcher saw them). */
    get pendingChanges() {
        return this.changed.size;
    }
    /** Resolves when the file events seen so far have been counted (ignore checks done). */
    async counted() {
        while (this.checking)
            await this.checking;
    }
    /**
     * Start the interval timer and launch the watcher. It does not wait for the watcher's walk of the
     * tree, which grows with the repository: the agent starts at once, and a change made before the walk
     * reached its directory is still in the next checkpoint (git decides what changed; the watcher only
     * counts towards `max_changes`). `ready()` waits for the walk.
     */
    start() {
        if (this.options.eventLogPath) {
            fs__default.mkdirSync(path.dirname(this.options.eventLogPath), { recursive: true });
            this.log = fs__default.createWriteStream(this.options.eventLogPath, { flags: 'a' });
        }
        if (this.options.intervalMs > 0) {
            this.timer = setInterval(() => void this.fire('interval'), this.options.intervalMs);
            this.timer.unref();
        }
        if (this.options.maxChanges > 0 || this.log) {
            this.watching = this.startWatcher().catch((error) => this.writeLog({ event: 'watch_error', path: '', message: String(error) }));
        }
    }
    /** Resolves once the watcher has walked the tree (or gave up); events from then on are counted. */
    ready() {
        return this.watching;
    }
    /** A detector event (e.g. completion) asks for a checkpoint. */
    event(name) {
        return this.fire('event', name);
    }
    manual() {
        return this.fire('manual');
    }
    /**
     * Take the final checkpoint (always, even if one is running) and stop watching. The final one is queued
     * before waiting for a triggered one, so a checkpoint still waiting out min_interval gives way to it
     * instead of holding the end of the session.
     */
    async final() {
        this.changed.clear();
        const final = this.options.take('final');
        final.catch(() => undefined);
        await this.stop();
        return final;
    }
    /** Stop timers and the watcher; idempotent. */
    async stop() {
        if (this.stopped)
            return;
        this.stopped = true;
        if (this.timer)
            clearInterval(this.timer);
        this.timer = null;
        // Closing mid-walk abandons the rest of it: a short session never pays for the whole tree.
        this.watcher?.close();
        this.watcher = null;
        await this.watching;
        await this.checking;
        await this.inFlight?.catch(() => undefined);
        const log = this.log;
        this.log = null;
        if (log)
            await new Promise((resolve) => log.end(resolve));
    }
    fire(trigger, detail) {
        // An interval or change trigger while one is running would only produce an empty checkpoint.
        if (this.inFlight && (trigger === 'interval' || trigger === 'changes'))
            return this.inFlight;
        this.changed.clear();
        const run = this.options
            .take(trigger, detail)
            .catch((error) => this.options.onError?.(error, trigger))
            .finally(() => {
            if (this.inFlight === run)
                this.inFlight = null;
        });
        this.inFlight = run;
        return run;
    }
    async startWatcher() {
        this.ignoredDirs = await this.listIgnoredDirs();
        if (this.stopped)
            return;
        const watcher = new TreeWatcher({
            root: this.options.root,
            ignored: (rel) => this.isIgnored(rel),
            onEvent: (event, rel) => this.onFileEvent(event, rel),
            onError: (error) => this.writeLog({ event: 'watch_error', path: '', message: String(error) }),
        });
        this.watcher = watcher;
        await watcher.start();
    }
    onFileEvent(event, file) {
        this.writeLog({ event, path: file });
        if (event === 'addDir' || event === 'unlinkDir' || this.stopped || this.options.maxChanges <= 0)
            return;
        this.unchecked.add(file);
        this.checking ??= new Promise((resolve) => setImmediate(resolve)).then(() => this.countUnchecked());
    }
    /** Count a batch of changed paths, minus those .gitignore covers (e.g. a build dir created later). */
    async countUnchecked() {
        const batch = [...this.unchecked];
        this.unchecked.clear();
        let ignored = new Set();
        try {
            if (this.options.git)
                ignored = await this.options.git.checkIgnore(batch);
        }
        catch {
            // Counting is only a hint; git decides at checkpoint time.
        }
        this.checking = null;
        if (this.unchecked.size > 0)
            this.checking = this.countUnchecked();
        if (this.stopped)
            return;
        for (const file of batch)
            if (!ignored.has(file))
                this.changed.add(file);
        if (this.changed.size >= this.options.maxChanges)
            void this.fire('changes');
    }
    writeLog(entry) {
        this.log?.write(JSON.stringify({ at: new Date().toISOString(), ...entry }) + '\n');
    }
    /** `rel` is a POSIX path relative to the root. */
    isIgnored(rel) {
        if (rel === '')
            return false;
        const parts = rel.split('/');
        if (parts.some((part) => ALWAYS_IGNORED.has(part)))
            return true;
        return this.ignoredDirs.some((dir) => rel === dir || rel.startsWith(`${dir}/`));
    }
    /** Directories .gitignore excludes right now (e.g. dist/, build/), so the watcher never descends. */
    async listIgnoredDirs() {
        if (!this.options.git)
            return [];
        try {
            const result = await this.options.git.raw([
                'ls-files',
                '-z',
                '--others',
                '--ignored',
                '--exclude-standard',
                '--directory',
            ]);
            return splitNul(result.stdout)
                .filter((p) => p.endsWith('/'))
                .map((p) => p.slice(0, -1));
        }
        catch {
            return [];
        }
    }
}

// The repository's own machinery: what git itself runs or trusts. An agent that plants
// `.git/hooks/post-checkout`, sets `core.fsmonitor` or adds a `filter.*.clean` gets a program run by the
// user's next git command (or by proctor's own plumbing), outside every checkpoint and every diff. This
// records that machinery when the session starts and tells what changed since, and can put it back.
//
// Recorded: the repository's config files (`config`, and `config.worktree` of a linked worktree),
// everything under `hooks/`, `info/attributes` and `info/exclude` (bytes and mode), and the effective
// values of the keys that make git run a program or fetch credentials, from every scope (a change in
// the global config is reported; it cannot be undone from here).
/**
 * Keys whose value makes git run a program, read other config, hand out credentials or send a fetch or
 * push somewhere else (url.*.insteadOf), watched in every scope.
 */
const SENSITIVE_KEYS = '^(core\\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy|attributesfile|excludesfile|alternaterefscommand)|include\\..*|includeif\\..*|filter\\..*|diff\\.external|diff\\..*\\.(textconv|command)|merge\\..*\\.driver|credential\\..*|url\\..*\\.(insteadof|pushinsteadof)|pager\\..*|protocol\\.(.*\\.)?allow|remote\\..*\\.(uploadpack|receivepack|vcs)|gpg\\.(.*\\.)?program|sequence\\.editor|uploadpack\\.packobjectshook)$';
/**
 * Keys of the repository's config files that git writes in ordinary work and that run nothing: the
 * upstream of a branch (`git push -u`, `git branch --set-upstream-to`, `git checkout --track`). A change
 * to only these is accepted (it becomes the recorded state); any other key changed with them is tamper.
 */
const BENIGN_KEY = /^branch\..+\.(remote|merge)$/;
/** The hooks directory is small (git's samples are ~25 KiB); a runaway one is not copied in full. */
const MAX_RECORDED_BYTES = 8 * 1024 * 1024;
class GitMachinery {
    git;
    root;
    files;
    dirs;
    singles;
    configs;
    effective;
    constructor(git, root, 
    /** Absolute path → recorded state (absent paths are not in the map). */
    files, 
    /** Directories walked for files (hooks/): a file there that was not recorded is new. */
    dirs, 
    /** Single files watched (config, info/*): absent at the start is recorded as absent. */
    singles, configs, effective) {
        this.git = git;
        this.root = root;
        this.files = files;
        this.dirs = dirs;
        this.singles = singles;
        this.configs = configs;
        this.effective = effective;
    }
    /** Records the machinery of the repository `git` runs in. */
    static async record(git) {
        // The effective values need no paths: read side by side with the rest (this runs before the agent
        // starts, so its git processes are waited for by the agent's spawn).
        const effective = effectiveValues(git);
        effective.catch(() => undefined);
        const out = (await git.raw(['rev-parse', '--show-toplevel', '--git-common-dir', '--git-dir'])).stdout.split('\n');
        const root = out[0];
        const common = path.resolve(git.cwd, out[1]);
        const own = path.resolve(git.cwd, out[2]);
        const configFiles = [path.join(common, 'config')];
        if (own !== common)
            configFiles.push(path.join(own, 'config.worktree'));
        const singles = [...configFiles, path.join(common, 'info/attributes'), path.join(common, 'info/exclude')];
        const dirs = [path.join(common, 'hooks')];
        const files = new Map();
        let budget = MAX_RECORDED_BYTES;
        for (const file of [...singles, ...dirs.flatMap((d) => walk(d))]) {
            const state = readState(file);
            if (!state)
                continue;
            budget -= state.data.length;
            if (budget < 0)
                break;
            files.set(file, state);
        }
        const entries = await Promise.all(configFiles.map((file) => configEntries(git, file)));
        const configs = new Map(configFiles.map((file, i) => [file, entries[i]]));
        return new GitMachinery(git, root, files, dirs, singles, configs, await effective);
    }
    /** What differs from the recording, in a stable order. */
    async changes() {
        const changes = [];
        const current = new Set([...this.singles, ...this.dirs.flatMap((d) => walk(d))]);
        for (const file of [...new Set([...this.files.keys(), ...current])].sort()) {
            const before = this.files.get(file) ?? null;
            const now = current.has(file) ? readState(file) : null;
            if (sameState(before, now))
                continue;
            if (now && (await this.acceptBenign(file, now)))
                continue;
            changes.push(await this.describe(file, before, now));
        }
        // Effective values changed with no change to a recorded file: another scope (global, an include).
        const configChanged = changes.some((c) => this.configs.has(this.absolute(c.file)));
        if (!configChanged) {
            const effective = await effectiveValues(this.git);
            for (const line of diffEntries(this.effective, effective)) {
                const key = line.key;
                changes.push({
                    file: `git config ${key}`,
                    what: `git config ${key} ${line.text} outside the repository's .git/config (global or system config)`,
                    suggestion: `Remove ${key} from the config file that sets it (git config --show-origin --get-all ${key}).`,
                    undoable: false,
                });
            }
        }
        return changes;
    }
    /** Puts every recorded file back (and removes files that were added); returns what was restored. */
    undo(changes) {
        const done = [];
        for (const change of changes) {
            if (!change.undoable)
                continue;
            const file = this.absolute(change.file);
            const before = this.files.get(file) ?? null;
            fs__default.rmSync(file, { recursive: true, force: true });
            if (before) {
                fs__default.mkdirSync(path.dirname(file), { recursive: true });
                if (before.symlink)
                    fs__default.symlinkSync(before.data.toString('utf8'), file);
                else {
                    // Written next to it and renamed: a git command reading the config never sees half a file.
                    const temp = `${file}.proctor-restore`;
                    fs__default.writeFileSync(temp, before.data, { mode: before.mode & 0o7777 });
                    fs__default.chmodSync(temp, before.mode & 0o7777);
                    fs__default.renameSync(temp, file);
                }
            }
            done.push(change.file);
        }
        return done;
    }
    /** A config file whose only changes are BENIGN_KEY entries: record it as it is now and report nothing. */
    async acceptBenign(file, now) {
        const recorded = this.configs.get(file);
        if (!recorded || now.symlink)
            return false;
        const entries = await configEntries(this.git, file);
        if (!diffEntries(recorded, entries).every((d) => BENIGN_KEY.test(d.key)))
            return false;
        this.files.set(file, now);
        this.configs.set(file, entries);
        return true;
    }
    async describe(file, before, now) {
        const name = this.display(file);
        const base = { file: name, undoable: true };
        const recorded = this.configs.get(file);
        if (recorded) {
            const entries = now ? await configEntries(this.git, file) : new Map();
            const lines = diffEntries(recorded, entries).map((d) => `${d.key} ${d.text}`);
            const what = lines.length
                ? `${name} was changed: ${lines.slice(0, 8).join('; ')}${lines.length > 8 ? `; and ${lines.length - 8} more` : ''}`
                : `${name} was ${now ? (before ? 'rewritten' : 'created') : 'deleted'}`;
            return {
                ...base,
                what,
                suggestion: `Leave the repository's git config alone; proctor restores ${name} as it was when the session started.`,
            };
        }
        const inHooks = this.dirs.some((d) => file.startsWith(`${d}${path.sep}`));
        const state = now ? (before ? 'modified' : 'added') : 'deleted';
        const what = inHooks
            ? `${name} was ${state} in the repository's hooks directory${now ? ': git runs it on the user’s next matching git command' : ''}`
            : `${name} was ${state}`;
        return {
            ...base,
            what,
            suggestion: inHooks
                ? `Do not install git hooks; ${now && !before ? `delete ${name}` : `restore ${name}`}.`
                : `Leave ${name} as it was; proctor restores it.`,
        };
    }
    /** `.git/hooks/x` for files in the repository's own git dir; the absolute path otherwise. */
    display(file) {
        const rel = path.relative(this.root, file);
        return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
    }
    absolute(name) {
        return path.isAbsolute(name) ? name : path.join(this.root, name);
    }
}
function readState(file) {
    let stat;
    try {
        stat = fs__default.lstatSync(file);
    }
    catch {
        return null;
    }
    if (stat.isSymbolicLink())
        return { data: Buffer.from(fs__default.readlinkSync(file), 'utf8'), mode: 0, symlink: true };
    if (!stat.isFile())
        return null;
    try {
        return { data: fs__default.readFileSync(file), mode: stat.mode, symlink: false };
    }
    catch {
        return { data: Buffer.alloc(0), mode: stat.mode, symlink: false };
    }
}
function sameState(a, b) {
    if (a === null || b === null)
        return a === b;
    return a.symlink === b.symlink && (a.mode & 0o777) === (b.mode & 0o777) && a.data.equals(b.data);
}
/** Files and links below `dir` (not directories), depth-limited. */
function walk(dir, depth = 0) {
    let entries;
    try {
        entries = fs__default.readdirSync(dir, { withFileTypes: true });
    }
    catch {
        return [];
    }
    const out = [];
    for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            if (depth < 4)
                out.push(...walk(full, depth + 1));
        }
        else
            out.push(full);
    }
    return out;
}
/** Every entry of one config file, key → values in order (empty when it does not exist). */
async function configEntries(git, file) {
    if (!fs__default.existsSync(file))
        return new Map();
    const result = await git.raw(['config', '--file', file, '--no-includes', '-z', '--list'], {
        okExitCodes: [1, 3],
    });
    return parseEntries(result.stdout.split('\0'));
}
/**
 * The effective values of the sensitive keys from every scope but the command line (proctor's own
 * `-c core.hooksPath=/dev/null`, `-c core.fsmonitor=false` would hide the user's).
 */
async function effectiveValues(git) {
    const result = await git.raw(['config', '--show-scope', '-z', '--get-regexp', SENSITIVE_KEYS], {
        okExitCodes: [1],
    });
    const fields = result.stdout.split('\0');
    const kept = [];
    for (let i = 0; i + 1 < fields.length; i += 2)
        if (fields[i] !== 'command')
            kept.push(fields[i + 1]);
    return parseEntries(kept);
}
/** `key\nvalue` records (git config -z) → key → values. */
function parseEntries(records) {
    const map = new Map();
    for (const record of records) {
        if (record === '')
            continue;
        const newline = record.indexOf('\n');
        const key = newline < 0 ? record : record.slice(0, newline);
        const value = newline < 0 ? '(no value)' : record.slice(newline + 1);
        map.set(key, [...(map.get(key) ?? []), value]);
    }
    return map;
}
function diffEntries(before, after) {
    const out = [];
    for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
        const a = before.get(key) ?? [];
        const b = after.get(key) ?? [];
        if (a.length === b.length && a.every((v, i) => v === b[i]))
            continue;
        const show = (values) => values.map((v) => JSON.stringify(v.slice(0, 200))).join(', ');
        const text = a.length === 0
            ? `set to ${show(b)}`
            : b.length === 0
                ? `removed (was ${show(a)})`
                : `changed from ${show(a)} to ${show(b)}`;
        out.push({ key, text });
    }
    return out;
}

// Waiting with a limit: cancellation windows and reporting budgets must not be outlived by a slow promise.
/** The promise's value, or `fallback()` once `ms` have passed. The promise itself is not cancelled. */
async function withDeadline(promise, ms, fallback) {
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(() => resolve(fallback()), Math.max(0, ms))));
    try {
        return await Promise.race([promise, late]);
    }
    finally {
        clearTimeout(timer);
    }
}

// The session's side of checkpoints: a CheckpointStore with policy on every diff, the triggers that
// decide when, and the push queue. Without a git repository (or with checkpoints.enabled: false) every
// method is a no-op, so the session reads the same either way.
/** The key a violation is reported under: each (constraint, file) once per session. */
const keyOf = (v) => `${v.constraint}\0${v.file}`;
class SessionCheckpoints {
    o;
    store = null;
    triggers = null;
    push = null;
    root = null;
    git = null;
    running = false;
    opening = Promise.resolve();
    /** Starts the watcher and opens the store; set by start(), run once (see start()). */
    launch = null;
    /** Every violation reported so far, by key; `resolved` is kept up to date at each checkpoint. */
    reported = new Map();
    records = [];
    /** What the session's work holds now: the cumulative diff's violations at the latest checkpoint. */
    current = [];
    /** Warnings already sent back to the agent (by key). */
    delivered = new Set();
    machinery = null;
    machineryQueue = Promise.resolve();
    /** git_tamper violations still standing (policy.git_tamper: report), by what changed. */
    tamper = new Map();
    consecutiveFailures = 0;
    totalFailures = 0;
    lastFailure = null;
    fatalReason = null;
    constructor(o) {
        this.o = o;
    }
    async start() {
        const { config, report } = this.o;
        if (!config.checkpoints.enabled)
            return;
        const workspace = Workspace.find(this.o.cwd);
        if (!workspace) {
            report.event('warning', 'not inside a git repository: checkpoints are off for this session');
            return;
        }
        this.root = workspace.root;
        const git = workspace.git;
        this.git = git;
        // Before the agent starts, side by side: the commit its work is judged against (the store opens only
        // after the spawn, when the agent may already have moved HEAD), and what the repository's own
        // machinery looks like untouched.
        const [head, machinery] = await Promise.all([
            git.resolveObjects(['HEAD^{commit}']).then(([commit]) => commit ?? null),
            config.policy.git_tamper !== 'off' ? GitMachinery.record(git) : null,
        ]);
        this.machinery = machinery;
        this.store = workspace.store(this.o.sessionId, config, {
            ...(head ? { baseCommit: head } : {}),
            hiddenPaths: this.o.hiddenPaths,
            // The session judges each checkpoint itself: it tracks what is resolved and what the agent heard.
            validate: (ctx) => this.validate(ctx),
            notice: (level, message) => {
                report.event(level === 'warning' ? 'warning' : 'checkpoint', message);
                this.o.onNotice?.(message);
            },
            onProgress: (progress) => this.o.onProgress?.(progress),
            // Freezing the agent only makes sense while it runs; between rounds there is nothing to pause.
            pauser: config.checkpoints.pause_agent
                ? { pause: () => this.running && this.o.pauser.pause(), resume: () => this.o.pauser.resume() }
                : undefined,
        });
        const triggers = new CheckpointTriggers({
            root: this.root,
            git,
            intervalMs: config.checkpoints.interval,
            maxChanges: config.checkpoints.max_changes,
            take: (trigger, detail) => this.take(trigger, detail),
            eventLogPath: join(this.o.sessionDir, 'file-events.jsonl'),
            onError: (error, trigger) => report.event('error', `checkpoint (${trigger}) failed: ${error.message}`),
        });
        // Neither the watcher's scan nor seeding the private index delays the agent: both grow with the
        // repository, and each git process they start forks proctor (a synchronous ~1 ms per 50 MB of RSS, far
        // more on a busy machine), so they start once the agent has been spawned (agentRunning), or at the
        // first checkpoint or the end if it never was. A checkpoint (and the end of the session) waits for the
        // store to open; a store that cannot open fails its checkpoints, which the session counts like any
        // other checkpoint failure.
        this.triggers = triggers;
        const store = this.store;
        this.launch = () => {
            this.launch = null;
            triggers.start();
            this.opening = store.open().then(async () => {
                this.push = await workspace.pushQueue(this.o.sessionId, config, {
                    base: store.base,
                    mode: this.pushMode(),
                    ...(this.o.pushSecretConfig ? { secretConfig: this.o.pushSecretConfig } : {}),
                });
            });
            this.opening.catch(() => undefined);
        };
    }
    /** `auto` pushes in CI only: a laptop session keeps its checkpoints local unless told `always`. */
    pushMode() {
        const mode = this.o.config.checkpoints.push;
        const inCi = this.o.env.CI === 'true' || this.o.env.GITHUB_ACTIONS === 'true';
        return mode === 'auto' && !inCi ? 'never' : mode;
    }
    agentRunning(running) {
        this.running = running;
        this.launch?.();
    }
    /** A detector event listed in checkpoints.on_events. */
    onEvent(kind) {
        this.triggers?.event(kind).catch(() => undefined);
    }
    /**
     * Takes a checkpoint now and waits for it (before stop hooks, so they see the latest work). Urgent: it
     * never sleeps out min_interval, and a triggered checkpoint still waiting gives way to it.
     */
    async settle(trigger) {
        if (!this.store)
            return;
        try {
            await this.take(trigger, undefined, true);
        }
        catch (error) {
            this.o.report.event('error', `checkpoint (${trigger}) failed: ${error.message}`);
        }
    }
    latest() {
        return this.records[this.records.length - 1] ?? null;
    }
    /**
     * The error/critical violations the session's work holds now (the policy gate): from the cumulative
     * diff of the latest checkpoint, plus git machinery changes that were not undone.
     */
    blocking() {
        return [...this.current, ...this.tamper.values()].filter((v) => atLeast(v.severity, 'error'));
    }
    /** Warnings the work holds now that the agent has not been told yet; marked told. */
    takeWarnings() {
        const fresh = this.current.filter((v) => notifiesAgent(v) && !atLeast(v.severity, 'error') && !this.delivered.has(keyOf(v)));
        for (const v of fresh)
            this.delivered.add(keyOf(v));
        return fresh;
    }
    /** Why the session must end errored: too many failed checkpoints in a row, or none ever succeeded. */
    failure() {
        if (this.fatalReason)
            return this.fatalReason;
        if (this.store && this.totalFailures > 0 && this.records.length === 0) {
            return `no checkpoint succeeded (${this.totalFailures} failed; last error: ${this.lastFailure ?? 'unknown'})`;
        }
        return null;
    }
    /**
     * Final checkpoint, final push (or bundle), and the private index is removed. `pushDeadlineMs` bounds the
     * push while proctor itself is being cancelled: report.json must be written before the runner's SIGKILL,
     * and the action's post step (or `proctor checkpoints push`) pushes what is left.
     */
    async finish(pushDeadlineMs) {
        if (!this.store || !this.triggers)
            return;
        this.launch?.();
        try {
            await this.opening;
        }
        catch (error) {
            await this.triggers.stop();
            // No final checkpoint without a store, but the machinery is still checked (and undone) at the end.
            await this.checkMachinery();
            this.noteFailure(error);
            throw error;
        }
        if (!this.push)
            return;
        try {
            await this.triggers.final();
        }
        finally {
            const flush = this.push.flush();
            let pushed = pushDeadlineMs === undefined
                ? await flush
                : await withDeadline(flush, pushDeadlineMs, () => ({
                    ...this.push.state,
                    ok: false,
                    reason: `the push did not finish within ${pushDeadlineMs} ms of the cancellation; run \`proctor checkpoints push\``,
                }));
            if (this.o.config.checkpoints.push === 'auto' && this.pushMode() === 'never') {
                pushed = {
                    ...pushed,
                    reason: 'checkpoints.push is auto, which pushes only in CI; set it to always to push from here',
                };
            }
            if (this.records.length > 0 || pushed.ok) {
                this.o.report.push(pushed);
                this.o.report.event('push', pushed.ok ? `pushed to ${pushed.remote} ${pushed.branch}` : `not pushed: ${pushed.reason}`, {
                    data: { ...pushed },
                });
            }
            await this.store.close();
        }
    }
    async take(trigger, detail, urgent = false) {
        if (!this.store)
            return null;
        // The machinery first: a planted filter or fsmonitor must be gone before git reads the worktree.
        await this.checkMachinery();
        this.launch?.();
        let result;
        try {
            await this.opening;
            result = await this.store.createDetailed(trigger, { urgent });
        }
        catch (error) {
            this.noteFailure(error);
            throw error;
        }
        this.consecutiveFailures = 0;
        if (!result)
            return null;
        const record = result.record;
        this.records.push(record);
        this.o.report.checkpoint(record);
        this.o.report.event('checkpoint', `checkpoint ${record.seq} (${trigger}${detail ? `: ${detail}` : ''}): ${record.files_changed.length} file(s)`, {
            name: String(record.seq),
            data: { sha: record.sha, ref: record.ref, skipped: record.skipped },
        });
        if (record.skipped.length) {
            this.o.report.event('checkpoint_skipped', `left out of checkpoint ${record.seq}: ${record.skipped.join(', ')}`);
        }
        this.o.lifecycle
            .fire('checkpoint', {
            seq: record.seq,
            sha: record.sha,
            ref: record.ref,
            trigger,
            files_changed: record.files_changed,
        })
            .catch(() => undefined);
        for (const violation of result.violations) {
            this.o.lifecycle.fire('violation', { ...violation }).catch(() => undefined);
        }
        const reverted = await this.revert(result.violations, result.parent);
        if (reverted.length) {
            this.current = this.current.filter((v) => !reverted.includes(v.file));
            this.markResolved();
        }
        this.push?.schedule();
        this.o.onChange();
        return record;
    }
    /**
     * revert_on_violation: the files behind critical violations go back to their state before this
     * checkpoint (the previous checkpoint, or the base). The checkpoint keeps what the agent did — the audit
     * trail — and the next checkpoint records the revert.
     */
    async revert(violations, parent) {
        const paths = filesToRevert(violations, this.o.config.policy);
        if (paths.length === 0 || !this.git)
            return [];
        if (!parent) {
            this.o.report.event('warning', `cannot revert ${paths.join(', ')}: the repository has no commit to revert to`);
            return [];
        }
        try {
            const done = await revertPaths(this.git, parent, paths);
            for (const v of violations)
                if (paths.includes(v.file))
                    v.reverted = true;
            this.o.report.event('revert', `reverted ${paths.length} file(s) with critical violations: ${paths.join(', ')}`, {
                data: { ...done, to: parent },
            });
            return paths;
        }
        catch (error) {
            this.o.report.event('error', `revert of ${paths.join(', ')} failed: ${error.message}`);
            return [];
        }
    }
    noteFailure(error) {
        this.consecutiveFailures++;
        this.totalFailures++;
        this.lastFailure = error.message;
        const max = this.o.config.checkpoints.max_failures;
        if (this.consecutiveFailures > max && !this.fatalReason) {
            this.fatalReason = `checkpoints failed ${this.consecutiveFailures} times in a row (checkpoints.max_failures: ${max}); last error: ${this.lastFailure}`;
            this.o.report.event('error', this.fatalReason);
            this.o.onFatal?.(this.fatalReason);
        }
    }
    /** Compares the repository's machinery with the recording; one check at a time. Never throws. */
    checkMachinery() {
        const run = this.machineryQueue.then(() => this.compareMachinery());
        this.machineryQueue = run.catch(() => undefined);
        return run.catch((error) => {
            this.o.report.event('error', `could not check the repository's git config and hooks: ${error.message}`);
        });
    }
    async compareMachinery() {
        if (!this.machinery)
            return;
        const changes = await this.machinery.changes();
        const severity = compilePolicy(this.o.config.policy).severityOf('git_tamper');
        const now = new Map(changes.map((c) => [`${c.file}\0${c.what}`, c]));
        for (const [key, v] of this.tamper) {
            if (!now.has(key)) {
                v.resolved = true;
                this.tamper.delete(key);
            }
        }
        for (const [key, change] of now) {
            if (this.tamper.has(key))
                continue;
            const v = {
                checkpoint: this.store?.latestSeq || null,
                file: change.file,
                constraint: 'git_tamper',
                severity,
                message: change.what,
                suggestion: change.suggestion,
            };
            this.tamper.set(key, v);
            this.o.report.violation(v);
            this.o.report.event('violation', `${v.severity}: ${v.file}: ${v.message}`, {
                name: v.constraint,
                data: { notify_agent: notifiesAgent(v) },
            });
            this.o.lifecycle.fire('violation', { ...v }).catch(() => undefined);
        }
        if (this.o.config.policy.git_tamper !== 'undo' || changes.length === 0)
            return;
        const undone = this.machinery.undo(changes);
        for (const [key, change] of now) {
            if (!undone.includes(change.file))
                continue;
            const v = this.tamper.get(key);
            v.reverted = true;
            v.resolved = true;
            this.tamper.delete(key);
        }
        if (undone.length) {
            this.o.report.event('revert', `restored the repository's git machinery: ${undone.join(', ')}`, {
                data: { files: undone },
            });
        }
    }
    /** Reported violations the work no longer holds are resolved; ones it holds again are not. */
    markResolved() {
        const holds = new Set(this.current.map(keyOf));
        for (const [key, v] of this.reported)
            v.resolved = !holds.has(key);
    }
    /** Policy on this checkpoint's diff and on the cumulative diff; each (file, constraint) is reported once. */
    validate(ctx) {
        const policy = this.o.config.policy;
        const worktree = this.root ?? this.o.cwd;
        const found = evaluateCheckpointScopes({
            seq: ctx.seq,
            files: ctx.files,
            cumulative: ctx.cumulative,
            withheld: ctx.withheld,
            worktree,
            policy,
        });
        this.current = found.cumulative;
        const fresh = found.all.filter((v) => {
            const key = keyOf(v);
            if (this.reported.has(key))
                return false;
            this.reported.set(key, v);
            return true;
        });
        this.markResolved();
        if (fresh.length) {
            this.o.report.violation(...fresh);
            for (const v of fresh) {
                this.o.report.event('violation', `${v.severity}: ${v.file || '(whole diff)'}: ${v.message}`, {
                    name: v.constraint,
                    data: { notify_agent: notifiesAgent(v) },
                });
            }
        }
        return fresh;
    }
}

// Agents with their own hook systems (Claude Code, Codex, Gemini CLI) get proctor wired into their Stop
// hook, so a block happens inside the agent's own loop. This prepares the agent command, its environment and
// any settings file for one session, and puts every touched file back afterwards.
/** How an agent's hook can start this very proctor: PROCTOR_BIN, else the running CLI script (dist/cli.js). */
function proctorInvocation(env = process.env) {
    if (env.PROCTOR_BIN)
        return [env.PROCTOR_BIN];
    const script = process.argv[1] ?? '';
    // Inside the action the running file is dist/index.js; the CLI sits next to it.
    const sibling = join(dirname(script), 'cli.js');
    const cli = basename(script) === 'cli.js' || !existsSync(sibling) ? script : sibling;
    return [process.execPath, ...process.execArgv, cli];
}
async function prepareNativeHooks(config, command, cwd, configFile, env, target) {
    const adapterName = config.agent.adapter;
    if (adapterName === 'generic') {
        return {
            command,
            active: false,
            env: {},
            files: [],
            wire: (other) => other,
            restore: async () => [],
        };
    }
    const adapter = nativeAdapters[adapterName];
    const slowest = Math.max(60_000, ...config.stop_hooks.map((h) => h.timeout));
    const setup = adapter.setup({
        hookCommand: nativeHookCommand(proctorInvocation(env), adapterName, configFile ?? undefined, target),
        timeoutMs: slowest + 30_000,
    });
    const installed = await installNativeHooks(setup, cwd);
    const wire = (other) => setup.args.length === 0
        ? other
        : 'shell' in other
            ? { shell: `${other.shell} ${setup.args.map(shellQuote).join(' ')}` }
            : { file: other.file, args: [...other.args, ...setup.args] };
    return {
        command: wire(command),
        active: true,
        env: setup.env,
        // The real path: the checkpoint store compares against the repository root git reports.
        files: installed.paths.map((path) => join(realpathSync(cwd), path)),
        wire,
        restore: () => installed.restore(),
    };
}

class NativeStops {
    o;
    relay = null;
    calls = 0;
    round = 0;
    sequence = 0;
    last = null;
    decided = null;
    /** The last answer let the agent stop (an allow, or the round cap) and no stop is being decided now. */
    letStop = false;
    settleListeners = new Set();
    constructor(o) {
        this.o = o;
    }
    async start() {
        this.relay = await startNativeRelay((request) => this.handle(request));
        return { session: this.o.sessionId, socket: this.relay.socket };
    }
    /** Whether the agent ever called proctor's Stop hook. */
    get called() {
        return this.calls > 0;
    }
    get lastRound() {
        return this.round;
    }
    /**
     * The agent was let stop by its last call and has not called again since: an interactive agent still
     * running is now idle for good, and the session can end it (see session.ts).
     */
    get settled() {
        return this.letStop;
    }
    /** Calls `listener` each time an answer lets the agent stop; returns the unsubscribe. */
    onSettle(listener) {
        this.settleListeners.add(listener);
        return () => this.settleListeners.delete(listener);
    }
    settle() {
        this.letStop = true;
        for (const listener of this.settleListeners)
            listener();
    }
    /** What the agent's stops decided (null when the agent never called the hook). */
    ending() {
        return this.decided;
    }
    async close() {
        await this.relay?.close();
        this.relay = null;
    }
    async handle(request) {
        const { adapter: name, report, maxStopRounds } = this.o;
        const adapter = nativeAdapters[name];
        if (request.adapter !== name || request.session !== this.o.sessionId) {
            return {
                exitCode: 1,
                stdout: '',
                stderr: `proctor hook stop: this socket serves ${name} in session ${this.o.sessionId}\n`,
            };
        }
        const parsed = parseNativeInput(name, request.input);
        if ('failure' in parsed) {
            report.event('warning', `${name}'s Stop hook sent input proctor cannot read: ${parsed.failure.stderr.trim()}`);
            return parsed.failure;
        }
        const { input } = parsed;
        this.letStop = false;
        if (!continuesBlockSequence(input, this.last))
            this.sequence = 0;
        this.round = this.calls === 0 ? this.o.firstRound() : this.round + 1;
        this.calls++;
        this.sequence++;
        report.round(this.round);
        const decision = await this.o.evaluate(this.round, input.finalText);
        this.last = { verdict: decision.verdict, promptKey: input.promptKey };
        if (decision.verdict === 'allow') {
            this.decided = { verdict: 'allow', reason: null };
            this.settle();
            return adapter.answer({ block: false });
        }
        if (this.sequence >= maxStopRounds) {
            const reason = `stop hooks still blocked after ${this.sequence} round(s) (max_stop_rounds: ${maxStopRounds})`;
            this.decided = { verdict: 'block', reason };
            // The next stop (a new prompt in an interactive agent) starts a fresh count.
            this.last = { verdict: 'allow', promptKey: input.promptKey };
            report.event('stop_hooks', `letting ${name} stop: ${reason}`, { data: { round: this.round } });
            this.settle();
            return adapter.answer({ block: false, note: `proctor: ${reason}; the verdict is block` });
        }
        this.decided = {
            verdict: 'block',
            reason: `stop hooks blocked in round ${this.round} and ${name} exited without stopping again`,
        };
        report.event('continue', `round ${this.round + 1}: ${name}'s own Stop hook sends the reasons back`, {
            data: { reasons: decision.reasons },
        });
        return adapter.answer({ block: true, reason: continuationMessage(decision.reasons) });
    }
}

// One supervised session: the agent under the supervisor, checkpoints and policy on its work, stop hooks
// deciding whether it may stop (and sending it back when they block), lifecycle hooks, and the report.
// Every way a session can end — exit, timeout, a detector, SIGINT/SIGTERM — funnels into `finish()`,
// which takes the final checkpoint, pushes, writes report.json and leaves nothing running.
/** While a signal is being handled the agent gets less grace: the runner's cancel window is 7.5 s in all. */
const INTERRUPT_GRACE_MS = 2_500;
/** ...and the final push gets this long before report.json is written anyway. */
const INTERRUPT_PUSH_DEADLINE_MS = 3_000;
async function runSession(opts) {
    const { config } = opts;
    // Tokens and step files never reach the agent or a hook (docs/action.md#what-the-agent-can-see).
    const env = agentEnvironment(opts.env ?? process.env, config.agent.env_passthrough);
    const dirs = ensureStateDir(opts.cwd);
    const reaped = await reconcileOrphans(dirs.state, { graceMs: Math.min(config.timeouts.grace, 2_000) });
    // The stale-index sweep forks git: it runs once the agent has been spawned (or at the end if it never
    // was), so it never delays the agent's start.
    let sweep = null;
    const sweepStaleIndexes = () => (sweep ??= removeStaleRepoIndexes(opts.cwd, liveSessions(dirs.state)).catch(() => []));
    const sessionId = opts.sessionId ? sanitizeRefPart(opts.sessionId) : makeSessionId(env);
    const dir = sessionDir(dirs, sessionId);
    const mode = config.agent.pty ? 'pty' : 'pipe';
    const report = new ReportBuilder({
        sessionId,
        command: commandArgv(opts.command),
        cwd: opts.cwd,
        mode,
        transcriptPath: join(dir, 'transcript.log'),
        ci: opts.ci,
    });
    if (opts.listener?.event)
        report.onEvent = (event) => opts.listener?.event?.(event);
    const progress = () => opts.listener?.progress?.(report.snapshot());
    report.event('session_start', `session ${sessionId} started: ${describeCommand('shell' in opts.command ? opts.command.shell : commandArgv(opts.command))}`);
    for (const orphan of reaped) {
        report.event('warning', `reconciled a run left by a crashed proctor: ${orphan.label} pid ${orphan.pid} (${orphan.action})`, {
            data: { ...orphan },
        });
    }
    const lifecycle = new LifecycleHooks({
        hooks: config.hooks,
        poolSize: config.hooks_async_pool_size,
        shutdownGraceMs: config.hooks_async_shutdown_grace,
        sessionId,
        cwd: opts.cwd,
        env,
        onWarning: (message, data) => report.event('warning', message, data ? { data } : {}),
        registryDir: dirs.state,
    });
    // Interruption: the first SIGINT/SIGTERM (or abort) stops the agent and the hooks; finishing goes on.
    let interruptedBy = null;
    /** Checkpoints failed beyond checkpoints.max_failures: the agent is stopped, the session ends errored. */
    let fatal = null;
    let currentRun = null;
    const hooksAbort = new AbortController();
    const interrupt = (signal) => {
        if (interruptedBy)
            return;
        interruptedBy = signal;
        report.event('signal', `received ${signal}: stopping the agent and finishing the session`);
        hooksAbort.abort();
        void currentRun?.stop('signal', INTERRUPT_GRACE_MS);
    };
    const uninstallSignals = opts.installSignalHandlers
        ? installShutdownSignals(async (signal) => interrupt(signal))
        : () => undefined;
    const onAbort = () => interrupt(opts.signal?.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
    if (opts.signal?.aborted)
        onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // Settings files proctor writes for an agent's native Stop hook: never checkpointed (see native-hooks.ts).
    const proctorFiles = new Set();
    const checkpoints = new SessionCheckpoints({
        config,
        cwd: opts.cwd,
        sessionId,
        sessionDir: dir,
        report,
        lifecycle,
        hiddenPaths: proctorFiles,
        pauser: {
            pause: () => currentRun?.pause(),
            resume: () => currentRun?.resume(),
        },
        onChange: progress,
        env,
        ...(opts.pushSecretConfig ? { pushSecretConfig: opts.pushSecretConfig } : {}),
        onFatal: (reason) => {
            fatal ??= reason;
            void currentRun?.stop('requested');
        },
        onNotice: (message) => opts.listener?.notice?.(message),
        onProgress: (progress) => opts.listener?.checkpointProgress?.(progress),
    });
    let ending;
    let outputTail = '';
    let transcript = { bytes: 0, capped: false };
    let restoreNative = async () => [];
    let nativeStops = null;
    try {
        await fire(lifecycle, 'session_start', { command: commandArgv(opts.command), cwd: opts.cwd, mode });
        await checkpoints.start();
        opts.listener?.started?.(report.snapshot());
        let round = 1;
        // >>> native Stop hook (agents/native): the agent's own Stop hook hands each stop to this session.
        const adapter = config.agent.adapter;
        nativeStops =
            adapter === 'generic'
                ? null
                : new NativeStops({
                    adapter,
                    sessionId,
                    maxStopRounds: config.max_stop_rounds,
                    report,
                    firstRound: () => round,
                    evaluate: (nativeRound, finalText) => evaluateStop({
                        config,
                        registryDir: dirs.state,
                        sessionId,
                        cwd: opts.cwd,
                        env,
                        round: nativeRound,
                        finalText,
                        stopReason: 'native',
                        report,
                        lifecycle,
                        checkpoints,
                        listener: opts.listener,
                        signal: hooksAbort.signal,
                    }).finally(progress),
                });
        const target = await nativeStops?.start();
        const native = await prepareNativeHooks(config, opts.command, opts.cwd, opts.configFile ?? null, env, target);
        for (const file of native.files)
            proctorFiles.add(file);
        Object.assign(env, native.env);
        restoreNative = native.restore;
        if (native.active)
            report.event('session_start', `wired proctor into ${adapter}'s own Stop hook`);
        // <<< native Stop hook
        let command = native.command;
        for (;;) {
            // Interrupted between rounds (e.g. during the stop hooks): no new agent run starts.
            if (interruptedBy) {
                ending = interrupted(interruptedBy);
                break;
            }
            if (fatal) {
                ending = errored(fatal);
                break;
            }
            report.round(round);
            const attempt = await superviseAgent({
                opts,
                registryDir: dirs.state,
                command,
                round,
                sessionId,
                dir,
                report,
                lifecycle,
                checkpoints,
                env,
                setRun: (run) => (currentRun = run),
                interrupted: () => interruptedBy !== null,
                hooksSignal: hooksAbort.signal,
                progress,
                native: native.active ? nativeStops : null,
                spawned: () => void sweepStaleIndexes(),
            });
            currentRun = null;
            outputTail = attempt.outputTail;
            transcript = {
                bytes: transcript.bytes + attempt.transcript.bytes,
                capped: transcript.capped || attempt.transcript.capped,
            };
            round = attempt.round;
            if (fatal && !interruptedBy) {
                ending = errored(fatal);
                break;
            }
            const early = endingOfAttempt(attempt, interruptedBy, config);
            if (early) {
                ending = early;
                break;
            }
            // >>> native Stop hook: the agent's own Stop hook already ran the stop hooks; they are not run again.
            const nativeEnding = nativeStops?.ending();
            if (nativeEnding) {
                ending = completed(nativeEnding.verdict, nativeEnding.reason);
                break;
            }
            if (native.active) {
                report.event('warning', `${adapter} never called proctor's Stop hook: proctor runs the stop hooks itself now that it exited`);
            }
            // <<< native Stop hook
            // The agent finished by itself: the stop hooks decide whether it may stop.
            const { reasons, step } = await decideStop({
                config,
                registryDir: dirs.state,
                sessionId,
                cwd: opts.cwd,
                env,
                round,
                finalText: attempt.outputTail,
                stopReason: 'completed',
                report,
                lifecycle,
                checkpoints,
                listener: opts.listener,
                signal: hooksAbort.signal,
            }, {
                mode,
                running: false,
                nativeHooks: native.active && (nativeStops?.called ?? false),
                nativeNote: native.active ? `${adapter} never called proctor's Stop hook, and ` : '',
            });
            progress();
            if (interruptedBy || fatal)
                continue; // the top of the loop records the interruption
            if (step.kind !== 'continue') {
                ending = completed(step.kind, step.kind === 'block' ? step.reason : null);
                break;
            }
            if (step.plan.kind !== 'rerun')
                throw new Error('unreachable: an exited agent is re-run');
            round++;
            command = native.wire(step.plan.command);
            report.event('continue', `round ${round}: re-running the agent with agent.continue`, {
                data: { reasons },
            });
        }
    }
    catch (error) {
        const message = error.message;
        report.event('error', message);
        ending = interruptedBy
            ? { ...interrupted(interruptedBy), reason: message }
            : errored(message, error instanceof SpawnError ? 2 : 1);
    }
    // Finishing: final checkpoint, push, lifecycle end, report. Never throws past here.
    await restoreNative()
        .then((changed) => {
        for (const file of changed)
            report.event('warning', `the agent changed ${file}, which proctor wrote for its Stop hook; the original was put back`);
    })
        .catch((error) => report.event('error', `could not restore the agent's hook settings: ${error.message}`));
    await nativeStops?.close().catch(() => undefined);
    await sweepStaleIndexes();
    try {
        await checkpoints.finish(interruptedBy ? INTERRUPT_PUSH_DEADLINE_MS : undefined);
    }
    catch (error) {
        report.event('error', `final checkpoint failed: ${error.message}`);
    }
    ending = finalEnding(ending, checkpoints, interruptedBy !== null);
    const { status, verdict, exitCode, reason } = ending;
    report.finish({ ...ending, outputTail, transcript });
    report.event('session_end', `session ended: ${status}, verdict ${verdict}`);
    await fire(lifecycle, 'session_end', { status, verdict, exit_code: exitCode, reason });
    // Async hooks (session_end's webhook) finish before proctor exits; after a signal the runner's cancel
    // window leaves no time, so they are stopped at once (with a warning).
    await lifecycle.drain(interruptedBy ? 0 : config.hooks_async_drain_timeout);
    uninstallSignals();
    opts.signal?.removeEventListener('abort', onAbort);
    const final = report.snapshot();
    const reportPath = join(dir, 'report.json');
    writeFileSync(reportPath, JSON.stringify(final, null, 2) + '\n');
    return { report: final, reportPath, exitCode };
}
/** Runs the agent once (one process), answering detections, until it exits or is stopped. */
async function superviseAgent(ctx) {
    const { opts, report } = ctx;
    const { config } = opts;
    const mode = config.agent.pty ? 'pty' : 'pipe';
    const transcriptPath = join(ctx.dir, ctx.round === 1 ? 'transcript.log' : `transcript.round-${ctx.round}.log`);
    const pipeline = new OutputPipeline({
        mode,
        cols: config.agent.cols,
        rows: config.agent.rows,
        transcriptPath,
        transcriptMax: config.output.transcript_max,
        bufferBytes: config.output.buffer,
        rules: config.detect,
        presets: config.detect_presets,
    });
    const run = new AgentRun({
        spawn: {
            command: ctx.command,
            cwd: config.agent.cwd ? join(opts.cwd, config.agent.cwd) : opts.cwd,
            env: {
                ...ctx.env,
                ...config.agent.env,
                PROCTOR_SESSION_ID: ctx.sessionId,
                PROCTOR_ROUND: String(ctx.round),
            },
            mode,
            // Without a PTY the agent's stdin stays an open pipe when a detector may answer (respond: send or
            // deny), so the answer reaches it. Otherwise it is closed at spawn: CLIs such as `codex exec` and
            // `claude -p` read a piped stdin to its end before they start, and would wait forever.
            keepStdinOpen: pipeline.detector.rules.some((rule) => rule.response.type === 'send' || rule.response.type === 'deny'),
            cols: config.agent.cols,
            rows: config.agent.rows,
            graceMs: config.timeouts.grace,
            registry: { dir: ctx.registryDir, role: 'agent', session: ctx.sessionId },
            label: 'agent',
        },
        totalTimeoutMs: config.timeouts.total,
        idleTimeoutMs: config.timeouts.idle,
        output: {
            write: (chunk) => {
                pipeline.write(chunk);
            },
            flush: () => pipeline.flush(),
        },
    });
    let round = ctx.round;
    let decided = null;
    let stopReason = null;
    let evaluation = null;
    const answers = new Set();
    run.on('output', (chunk) => {
        opts.output?.write(chunk);
    });
    pipeline.on('capped', (max) => report.event('output_capped', `transcript capped at ${max} bytes`));
    pipeline.on('slow_rule', (rule, ms) => report.event('detector', `warning: detect rule "${rule}" took ${Math.round(ms)} ms on one line; disabled`, {
        name: rule,
    }));
    run.on('timeout', ({ limitMs }) => report.event('timeout', `total timeout of ${formatDuration(limitMs)} reached`));
    run.on('idle_timeout', ({ limitMs }) => report.event('idle_timeout', `no output for ${formatDuration(limitMs)}`));
    // Recorded once the write settles: an answer that never reached the agent is not counted as one. The
    // first answer and its repeats (respond.retry_after) go the same way.
    const answer = (event, text, what) => {
        const data = { attempt: event.attempt, fire: event.fire };
        const written = run.write(text).then((result) => report.event('response', result.delivered ? what : `${what} — not delivered: ${result.reason}`, {
            name: event.rule,
            data: result.delivered ? { delivered: true, ...data } : { ...result, ...data },
        }));
        answers.add(written);
        void written.finally(() => answers.delete(written));
    };
    const onDetection = (event) => {
        const response = event.response;
        if (event.attempt > 1) {
            // The prompt is still on screen after the last answer (respond.retry_after): answer it again.
            if (response.text !== undefined)
                answer(event, response.text, `${response.type} again (attempt ${event.attempt}, the prompt is still on screen): ${JSON.stringify(response.text)}`);
            ctx.progress();
            return;
        }
        report.event(event.kind, event.text, { name: event.rule, data: { match: event.match, fire: event.fire } });
        if (event.kind === 'approval_request')
            void fire(ctx.lifecycle, 'approval_request', { rule: event.rule, text: event.text });
        if (config.checkpoints.on_events.includes(event.kind))
            ctx.checkpoints.onEvent(event.kind);
        if ((response.type === 'send' || response.type === 'deny') && response.text !== undefined) {
            answer(event, response.text, `${response.type}: ${JSON.stringify(response.text)}`);
        }
        else if (response.type === 'stop') {
            stopReason = `stopped by detector rule "${event.rule}": ${event.text}`;
            report.event('response', 'stop the agent', { name: event.rule });
            void run.stop('detector');
            return;
        }
        else {
            report.event('response', 'notify', { name: event.rule });
        }
        if (event.kind === 'completion' && !evaluation)
            evaluation = onCompletion().finally(() => (evaluation = null));
        if (event.kind === 'idle' && mode === 'pty' && !evaluation)
            void tellWarnings();
        ctx.progress();
    };
    // An interactive agent waiting at its prompt (a detector rule of kind `idle`) hears the policy's
    // warnings about its work so far, typed in as one line; each warning once.
    const tellWarnings = async () => {
        await ctx.checkpoints.settle('event');
        if (ctx.interrupted() || evaluation)
            return;
        const warnings = ctx.checkpoints.takeWarnings();
        if (warnings.length === 0)
            return;
        // Typed like the stop hooks' reasons (a bracketed paste when the agent asked for it, then Enter).
        const typed = await typeAndSubmit(run, pipeline, typedNotice(warnings).replace(/\r$/, ''), config.agent.typing, ctx.hooksSignal);
        report.event('policy_notice', `told the agent about ${warnings.length} policy warning(s)`, {
            data: {
                violations: warnings.map((v) => ({ file: v.file, constraint: v.constraint })),
                typing: { ...typed },
            },
        });
    };
    // The session is decided while the agent still runs: ask it to exit (agent.quit), else stop it.
    let ended = false;
    let exited = false;
    void run.finished.then(() => (exited = true));
    const end = async (verdict) => {
        if (ended)
            return;
        ended = true;
        decided = verdict;
        const quit = await quitAgent(run, config.agent.quit ? decodeKeys(config.agent.quit) : undefined, {
            submitDelayMs: config.agent.typing.submit_delay,
            graceMs: config.timeouts.grace,
        });
        if (config.agent.quit)
            report.event(quit.graceful ? 'exit' : 'warning', quit.graceful
                ? `asked the agent to exit (agent.quit) and it did`
                : `the agent did not exit within ${formatDuration(config.timeouts.grace)} of agent.quit; stopping it`);
    };
    // An interactive agent that says it is done but keeps running: the stop hooks decide now, and a block
    // is typed into its prompt so the same process continues. With a native Stop hook the agent's own hook
    // already decided: once it let the agent stop, the agent idling at its prompt is ended.
    const onCompletion = async () => {
        if (ctx.native) {
            const ending = ctx.native.settled ? ctx.native.ending() : null;
            if (ending)
                await end(ending);
            return;
        }
        await decideOnScreen();
    };
    // The agent's own hook let an interactive agent (one with agent.quit) stop: it is ended once the screen
    // stops showing it busy, whether or not its "done" line came before the hook answered (that line may be
    // drawn while the hook still runs, and is then not a new completion).
    const native = ctx.native;
    const offSettle = native && config.agent.quit
        ? native.onSettle(() => {
            void (async () => {
                do {
                    await setTimeout$1(SETTLE_CHECK_MS);
                } while (!ended && !exited && native.settled && pipeline.detector.workingNow);
                const ending = native.settled && !exited ? native.ending() : null;
                if (ending)
                    await end(ending);
            })();
        })
        : () => undefined;
    const decideOnScreen = async () => {
        try {
            const { reasons, step } = await decideStop({
                config,
                registryDir: ctx.registryDir,
                sessionId: ctx.sessionId,
                cwd: opts.cwd,
                env: ctx.env,
                round,
                finalText: pipeline.tailText(40),
                stopReason: 'completed',
                report,
                lifecycle: ctx.lifecycle,
                checkpoints: ctx.checkpoints,
                listener: opts.listener,
                signal: ctx.hooksSignal,
            }, { mode, running: true, nativeHooks: false });
            if (ctx.interrupted())
                return;
            if (step.kind !== 'continue') {
                await end({ verdict: step.kind, reason: step.kind === 'block' ? step.reason : null });
                return;
            }
            round++;
            report.round(round);
            report.event('continue', `round ${round}: typing the stop hooks' reasons into the agent`, {
                data: { reasons },
            });
            const typed = await typeAndSubmit(run, pipeline, typedLine(reasons), config.agent.typing, ctx.hooksSignal);
            report.event(typed.reacted ? 'continue' : 'warning', typed.reacted
                ? `typed the reasons${typed.bracketed ? ' as a bracketed paste' : ''} and pressed Enter ` +
                    `${typed.attempts === 1 ? 'once' : `${typed.attempts} times`}; the agent reacted`
                : `typed the reasons and pressed Enter ${typed.attempts} times, but the agent showed no activity`, { data: { ...typed } });
        }
        finally {
            ctx.progress();
        }
    };
    pipeline.on('event', onDetection);
    // Forward the user's keystrokes to an interactive PTY agent.
    const input = mode === 'pty' ? opts.input : null;
    // A keystroke's delivery is not awaited: write() answers undelivered instead of rejecting.
    const forward = (data) => void run.write(data);
    let rawWasOn = false;
    if (input) {
        rawWasOn = input.isRaw;
        input.setRawMode?.(true);
        input.on('data', forward);
        input.resume();
    }
    try {
        ctx.setRun(run);
        run.start();
        report.event('spawn', `agent started (pid ${run.pid}, ${mode})`, { data: { pid: run.pid, round } });
        ctx.checkpoints.agentRunning(true);
        ctx.spawned();
        const exit = await run.finished;
        ctx.checkpoints.agentRunning(false);
        report.event('exit', exit.cause
            ? `agent stopped (${exit.cause})${exit.killed ? ' with SIGKILL after the grace period' : ''}`
            : exit.signal
                ? `agent killed by ${exit.signal}`
                : `agent exited with code ${exit.exitCode}`, { data: { exit_code: exit.exitCode, signal: exit.signal, cause: exit.cause, killed: exit.killed } });
        // A completion evaluation may still be running (the agent exited meanwhile): let it settle.
        await evaluation;
        const summary = await pipeline.close();
        await Promise.all([...answers]);
        return {
            exit,
            round,
            outputTail: pipeline.tailText(40),
            transcript: { bytes: summary.bytes, capped: summary.capped },
            decided,
            stopReason,
        };
    }
    finally {
        offSettle();
        if (input) {
            input.off('data', forward);
            input.setRawMode?.(rawWasOn);
            input.pause();
        }
    }
}
/**
 * THE stop decision, for an agent that exited (the round loop) and for one that says it is done while
 * still running (a completion detector): evaluate the stop, then stop, give up or send the agent back.
 */
async function decideStop(e, s) {
    const decision = await evaluateStop(e);
    return { reasons: decision.reasons, step: nextStep(decision, { ...s, config: e.config, round: e.round }) };
}
/**
 * A checkpoint of what the agent left, then every stop hook in parallel, then the policy gate: the
 * unresolved error/critical violations in the session's work block like a stop hook named `policy`.
 * Warnings the agent has not heard yet ride along when it is sent back.
 */
async function evaluateStop(e) {
    await e.checkpoints.settle('event');
    await fire(e.lifecycle, 'stop', { round: e.round, stop_reason: e.stopReason });
    const hooks = await runHooks(e);
    const policy = policyGate(e);
    const verdict = hooks.verdict === 'allow' && policy.verdict === 'allow' ? 'allow' : 'block';
    const reasons = [...hooks.reasons, ...policy.reasons];
    if (verdict === 'block' && reasons.length)
        reasons.push(...warningReasons(e.checkpoints.takeWarnings()));
    return { verdict, reasons, errors: hooks.errors };
}
/** The policy gate of one stop round, recorded as the stop hook `policy` once it has had to block. */
function policyGate(e) {
    const blocking = e.checkpoints.blocking();
    const blockedBefore = e.report.snapshot().stop_hooks.some((r) => r.name === POLICY_GATE);
    if (blocking.length === 0 && !blockedBefore)
        return { verdict: 'allow', reasons: [] };
    const reasons = policyReasons(blocking);
    const result = {
        name: POLICY_GATE,
        verdict: blocking.length ? 'block' : 'allow',
        reason: blocking.length
            ? `${blocking.length} unresolved error/critical violation(s): ${blocking.map((v) => v.file || '(whole diff)').join(', ')}`
            : null,
        exit_code: null,
        duration_ms: 0,
        round: e.round,
    };
    // Recorded in the report (the comment lists it with the stop hooks); its check run is `proctor /
    // policy`, which the reporter completes from the violations at the end.
    e.report.stopHook(result);
    e.report.event('policy_gate', blocking.length ? `policy blocked (round ${e.round})` : `policy allowed (round ${e.round})`, { data: { verdict: result.verdict, reasons, round: e.round } });
    return { verdict: result.verdict === 'allow' ? 'allow' : 'block', reasons };
}
async function runHooks(e) {
    if (e.config.stop_hooks.length === 0)
        return { verdict: 'allow', reasons: [], errors: [] };
    const latest = e.checkpoints.latest();
    const context = {
        session_id: e.sessionId,
        cwd: e.cwd,
        stop_reason: e.stopReason,
        final_text: e.finalText,
        rounds: e.round,
        stop_hook_active: e.round > 1,
        checkpoint: latest ? { ref: latest.ref, sha: latest.sha, files_changed: latest.files_changed } : null,
        violations: e.report.snapshot().violations,
    };
    const outcome = await runStopHooks({
        hooks: e.config.stop_hooks,
        context,
        cwd: e.cwd,
        env: e.env,
        graceMs: Math.min(e.config.timeouts.grace, INTERRUPT_GRACE_MS),
        round: e.round,
        signal: e.signal,
        registry: { dir: e.registryDir, session: e.sessionId },
        onStart: (name) => e.listener?.hookStarted?.(name, e.round),
        onResult: (result) => {
            e.report.stopHook(result);
            e.listener?.hookFinished?.(result);
        },
        ...(e.listener?.hookOutput
            ? { onOutput: (name, chunk) => e.listener?.hookOutput?.(name, chunk) }
            : {}),
    });
    e.report.event('stop_hooks', outcome.verdict === 'allow'
        ? `stop hooks allowed (round ${e.round})`
        : `stop hooks blocked (round ${e.round})`, { data: { verdict: outcome.verdict, reasons: outcome.reasons, errors: outcome.errors, round: e.round } });
    return { verdict: outcome.verdict, reasons: outcome.reasons, errors: outcome.errors };
}
async function fire(lifecycle, event, extra) {
    try {
        await lifecycle.fire(event, extra);
    }
    catch {
        // Lifecycle hooks report their own failures as warnings; they never end a session.
    }
}
function commandArgv(command) {
    return 'shell' in command ? ['/bin/sh', '-c', command.shell] : [command.file, ...command.args];
}
const completed = (verdict, reason) => ({
    status: 'completed',
    verdict,
    exitCode: verdict === 'allow' ? 0 : 1,
    signal: null,
    reason,
});
const interrupted = (signal) => ({
    status: 'interrupted',
    verdict: 'block',
    exitCode: exitCodeForSignal(signal),
    signal,
    reason: `interrupted by ${signal}`,
});
const errored = (reason, exitCode = 1) => ({
    status: 'errored',
    verdict: 'block',
    exitCode,
    signal: null,
    reason,
});
const failed = (reason, signal = null) => ({
    status: 'failed',
    verdict: 'block',
    exitCode: 1,
    signal,
    reason,
});
/** Only hooks that could not run block: the agent cannot fix proctor.yml, so it is not sent back. */
function hookErrors(errors) {
    return `stop hooks could not run (fix proctor.yml; the agent was not sent back): ${errors.join('; ')}`;
}
/** The stop hook name under which the policy gate is reported. */
const POLICY_GATE = 'policy';
/**
 * After a stop round: stop (allowed), give up (blocked), or send the agent back — typed into a live
 * PTY agent, or by re-running agent.continue for one that exited. Only decideStop() asks.
 */
function nextStep(decision, s) {
    if (decision.verdict === 'allow')
        return { kind: 'allow' };
    // Only hooks that could not run: nothing for the agent to fix.
    if (decision.reasons.length === 0)
        return { kind: 'block', reason: hookErrors(decision.errors) };
    const step = continueOrBlock(decision, s);
    return step.kind === 'block' ? { kind: 'block', reason: `${step.reason}${why(decision.reasons)}` } : step;
}
/** The first reasons, short, so a blocked session's reason says what blocked it. */
function why(reasons) {
    if (reasons.length === 0)
        return '';
    const cut = (r) => (r.length > 200 ? `${r.slice(0, 200)}…` : r);
    const shown = reasons.slice(0, 3).map(cut);
    return ` — ${shown.join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more` : ''}`;
}
function continueOrBlock(decision, s) {
    if (s.round >= s.config.max_stop_rounds)
        return { kind: 'block', reason: gaveUp(s.round, s.config) };
    const plan = planContinuation(s.config.agent.adapter, {
        mode: s.mode,
        running: s.running,
        continueCommand: s.config.agent.continue,
        nativeHooks: s.nativeHooks,
        reasons: decision.reasons,
        round: s.round + 1,
    });
    if (s.running ? plan.kind === 'type-into-pty' : plan.kind === 'rerun')
        return { kind: 'continue', plan };
    if (s.running) {
        return { kind: 'block', reason: 'stop hooks blocked and the agent cannot be sent back (pipe mode)' };
    }
    return {
        kind: 'block',
        reason: plan.kind === 'native'
            ? `stop hooks still block after the agent's own Stop hook let it finish`
            : `${s.nativeNote ?? ''}stop hooks blocked and the agent cannot continue: ${plan.kind === 'none' ? plan.why : plan.kind}`,
    };
}
/**
 * The ending once the final checkpoint is in: checkpoints that failed beyond max_failures (or never
 * succeeded) make the session errored; unresolved error/critical violations make an allow a block.
 */
function finalEnding(ending, checkpoints, wasInterrupted) {
    const failure = checkpoints.failure();
    if (failure && !wasInterrupted)
        return errored(failure);
    if (ending.verdict !== 'allow')
        return ending;
    const open = checkpoints.blocking();
    if (open.length === 0)
        return ending;
    const files = [...new Set(open.map((v) => v.file || '(whole diff)'))];
    return completed('block', `policy: ${open.length} unresolved error/critical violation(s) at the end: ${files.slice(0, 10).join(', ')}${files.length > 10 ? ', …' : ''}`);
}
function gaveUp(round, config) {
    return `stop hooks still blocked after ${round} round(s) (max_stop_rounds: ${config.max_stop_rounds})`;
}
/** How often an interactive agent the native hook let stop is checked for still showing itself busy. */
const SETTLE_CHECK_MS = 500;
/** The ending an agent run decides by itself (signal, timeout, detector, failure), or null: ask the stop hooks. */
function endingOfAttempt(attempt, interruptedBy, config) {
    const exit = attempt.exit;
    if (interruptedBy || exit.cause === 'signal')
        return interrupted(interruptedBy ?? 'SIGINT');
    if (exit.cause === 'timeout') {
        return {
            ...failed(`total timeout of ${formatDuration(config.timeouts.total)} reached`),
            status: 'timeout',
            exitCode: 124,
        };
    }
    if (exit.cause === 'idle_timeout') {
        return {
            ...failed(`no output for ${formatDuration(config.timeouts.idle)} (idle timeout)`),
            status: 'timeout',
            exitCode: 124,
        };
    }
    // Stop hooks already ran while an interactive agent was still on screen.
    if (attempt.decided)
        return completed(attempt.decided.verdict, attempt.decided.reason);
    if (exit.cause === 'detector')
        return failed(attempt.stopReason ?? 'stopped by a detector rule');
    if (exit.exitCode !== 0) {
        return exit.signal
            ? failed(`the agent was killed by ${exit.signal}`, exit.signal)
            : failed(`the agent exited with code ${exit.exitCode}`);
    }
    return null;
}

export { exitCodeForSignal as e, installShutdownSignals as i, makeSessionId as m, runSession as r, sanitizeRefPart as s, withDeadline as w };
