import { r as runStopHooks } from './stop-hooks-BJdq3XY7.js';
import { t as typedLine, p as planContinuation } from './continue-CWf2Yz5i.js';
import { w as warningReasons, p as policyReasons } from './feedback-CO8PHFfu.js';
import { l as lifecycleExtra } from './payloads-CTBGsIwZ.js';
import { summarizeRounds } from './resume-DcL9gF2f.js';
import { f as fire } from './session-BRW2EmEt.js';
import './run-hook-DNdEhNsA.js';
import './process-oa2MkSfe.js';

import './checkpoints-create-CJcO-Brq.js';

import './errors-lvn-GX78.js';


import './exit-DPvLwpPv.js';
import './registry-DMAlOnZf.js';


import './sanitize-C-XaPVOa.js';
import './secret-forms-Ct3YzP3D.js';
import './events-C_YfI5y8.js';
import './trigger-BvHsmMSw.js';
import './context-D-q0CQle.js';
import './git-blockers-Dy_7XOmu.js';
import './summary-BBJud0Oe.js';

import './detect-BBMe2jVM.js';
import './regex-safety-BsAHGJak.js';
import './commonjs-helpers-Bgu_3bK-.js';



/** The stop hook name under which the policy gate is reported. */
const POLICY_GATE = 'policy';
class StopRound {
    ctx;
    constructor(ctx) {
        this.ctx = ctx;
    }
    /** The stop decision and the step after it, for an agent that stopped by itself (exited or on screen). */
    async decide(at, standing) {
        const decision = await this.evaluate(at);
        return { reasons: decision.reasons, step: this.nextStep(decision, at.round, standing) };
    }
    /**
     * A checkpoint of what the agent left, then every stop hook in parallel, then the policy gate: the
     * unresolved error/critical violations in the session's work block like a stop hook named `policy`.
     * Warnings the agent has not heard yet ride along when it is sent back.
     */
    async evaluate(at) {
        const { checkpoints, lifecycle } = this.ctx;
        await checkpoints.settle('event');
        await fire(lifecycle, 'stop', lifecycleExtra.stop(at.round, at.stopReason));
        const hooks = await this.runHooks(at);
        const policy = this.policyGate(at.round);
        const verdict = hooks.verdict === 'allow' && policy.verdict === 'allow' ? 'allow' : 'block';
        const reasons = [...hooks.reasons, ...policy.reasons];
        if (verdict === 'block' && reasons.length)
            reasons.push(...warningReasons(checkpoints.takeWarnings()));
        return { verdict, reasons, errors: hooks.errors };
    }
    /** The blocking reasons as one line to type into an interactive agent's prompt (without the Enter). */
    typedLine(reasons) {
        return typedLine(reasons);
    }
    /** The stop context the stop hooks read (docs/hooks.md), the same for every stop of the session. */
    stopContext(at) {
        const { sessionId, opts, report, checkpoints } = this.ctx;
        const latest = checkpoints.latest();
        return {
            session_id: sessionId,
            cwd: opts.cwd,
            stop_reason: at.stopReason,
            final_text: at.finalText,
            rounds: at.round,
            stop_hook_active: at.round > 1,
            checkpoint: latest ? { ref: latest.ref, sha: latest.sha, files_changed: latest.files_changed } : null,
            violations: report.snapshot().violations,
        };
    }
    async runHooks(at) {
        const { config, opts, env, report, checkpoints, registryDir, sessionId, halts } = this.ctx;
        const listener = opts.listener;
        const github = opts.github;
        const outcome = await runStopHooks({
            hooks: config.stop_hooks,
            context: this.stopContext(at),
            cwd: opts.cwd,
            env,
            graceMs: config.timeouts.grace,
            round: at.round,
            signal: halts.hooks.signal,
            registry: { dir: registryDir, session: sessionId },
            ...(github
                ? {
                    builtins: {
                        push: (sha) => checkpoints.pushCheckpoint(sha),
                        github,
                        baseline: report.snapshot().baseline?.commit,
                    },
                }
                : {}),
            onStart: (name) => listener?.hookStarted?.(name, at.round),
            onResult: (result) => {
                report.stopHook(result);
                listener?.hookFinished?.(result);
            },
            ...(listener?.hookOutput
                ? { onOutput: (name, chunk) => listener.hookOutput?.(name, chunk) }
                : {}),
        });
        // No stop hooks configured: nothing ran, so the timeline says nothing of them.
        if (outcome.results.length === 0)
            return { verdict: 'allow', reasons: [], errors: [] };
        report.event('stop_hooks', outcome.verdict === 'allow'
            ? `stop hooks allowed (round ${at.round})`
            : `stop hooks blocked (round ${at.round})`, {
            data: { verdict: outcome.verdict, reasons: outcome.reasons, errors: outcome.errors, round: at.round },
        });
        return { verdict: outcome.verdict, reasons: outcome.reasons, errors: outcome.errors };
    }
    /** The policy gate of one stop round, recorded as the stop hook `policy` once it has had to block. */
    policyGate(round) {
        const { checkpoints, report } = this.ctx;
        const blocking = checkpoints.blocking();
        const blockedBefore = report.snapshot().stop_hooks.some((r) => r.name === POLICY_GATE);
        if (blocking.length === 0 && !blockedBefore)
            return { verdict: 'allow', reasons: [] };
        const reasons = policyReasons(blocking);
        const result = {
            name: POLICY_GATE,
            verdict: blocking.length ? 'block' : 'allow',
            reason: blocking.length ? blockingReason(blocking) : null,
            exit_code: null,
            duration_ms: 0,
            round,
        };
        // Recorded in the report (the comment lists it with the stop hooks); its check run is `proctor /
        // policy`, which the reporter completes from the violations at the end.
        report.stopHook(result);
        report.event('policy_gate', blocking.length ? `policy blocked (round ${round})` : `policy allowed (round ${round})`, { data: { verdict: result.verdict, reasons, round } });
        return { verdict: result.verdict === 'allow' ? 'allow' : 'block', reasons };
    }
    /** After a stop round: stop (allowed), give up (blocked), or send the agent back. */
    nextStep(decision, round, standing) {
        if (decision.verdict === 'allow')
            return { kind: 'allow' };
        // Only hooks that could not run: nothing for the agent to fix.
        if (decision.reasons.length === 0)
            return { kind: 'block', reason: hookErrors(decision.errors) };
        const step = this.continueOrBlock(decision.reasons, round, standing);
        return step.kind === 'block'
            ? { kind: 'block', reason: `${step.reason}${why(decision.reasons)}`, cause: step.reason }
            : step;
    }
    continueOrBlock(reasons, round, s) {
        const { config, mode, firstRound, report } = this.ctx;
        const rounds = round - firstRound + 1;
        if (rounds >= config.max_stop_rounds)
            return { kind: 'block', reason: gaveUp(rounds, config.max_stop_rounds) };
        const agentSession = report.lastAgentSession;
        const plan = planContinuation(config.agent.adapter, {
            mode,
            running: s.running,
            continueCommand: config.agent.continue,
            nativeHooks: s.nativeHooks,
            reasons,
            round: round + 1,
            agentSession,
            // Only a fresh re-run reads it: no session to resume, and a command to run.
            ...(agentSession || s.running || !config.agent.continue
                ? {}
                : { history: summarizeRounds(report.snapshot(), { ended: false }) }),
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
}
function blockingReason(blocking) {
    return `${blocking.length} unresolved error/critical violation(s): ${blocking.map((v) => v.file || '(whole diff)').join(', ')}`;
}
/** Only hooks that could not run block: the agent cannot fix proctor.yml, so it is not sent back. */
function hookErrors(errors) {
    return `stop hooks could not run (fix proctor.yml; the agent was not sent back): ${errors.join('; ')}`;
}
/** The first reasons, short, so a blocked session's reason says what blocked it. */
function why(reasons) {
    if (reasons.length === 0)
        return '';
    const cut = (r) => (r.length > 200 ? `${r.slice(0, 200)}…` : r);
    const shown = reasons.slice(0, 3).map(cut);
    return ` — ${shown.join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more` : ''}`;
}
function gaveUp(rounds, maxStopRounds) {
    return `stop hooks still blocked after ${rounds} round(s) (max_stop_rounds: ${maxStopRounds})`;
}

export { StopRound };
