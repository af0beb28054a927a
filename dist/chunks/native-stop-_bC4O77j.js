import { nativeAdapters } from './index-DtPt7qSS.js';
import { c as continuationMessage } from './continue-CWf2Yz5i.js';
import { s as startNativeRelay, p as parseNativeInput, c as continuesBlockSequence } from './native-relay-DQmEzIO0.js';
import { a as isAgentSessionId } from './session-BRW2EmEt.js';



import './checkpoints-create-CJcO-Brq.js';
import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';
import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';
import './stop-hooks-BJdq3XY7.js';
import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';
import './registry-DMAlOnZf.js';


import './git-blockers-Dy_7XOmu.js';
import './summary-BBJud0Oe.js';
import './payloads-CTBGsIwZ.js';
import './events-C_YfI5y8.js';

import './detect-BBMe2jVM.js';
import './regex-safety-BsAHGJak.js';
import './commonjs-helpers-Bgu_3bK-.js';


import './feedback-CO8PHFfu.js';

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
     * running is now idle for good, and the session can end it (see live-stop.ts).
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
        // The CLI's own session, for a later round to resume (report.agent_session_id); an id that could pass
        // for an option or a path is not kept.
        if (input.sessionId !== null && isAgentSessionId(input.sessionId))
            report.agentSession(input.sessionId);
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

export { NativeStops };
