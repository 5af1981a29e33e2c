package org.fastflowj.stream.internal;

import org.fastflowj.core.Node;

/**
 * The node that runs one operator instance: records go to the operator (a failing user function is
 * handed to the error policy), watermarks advance its time. It emits records as {@link Rec} and
 * watermarks as {@link Mark}, to the next operator of its fused chain or to a channel.
 */
public final class OperatorNode extends Node<Object, Object> implements Output {
    private final Operator operator;
    private final ErrorHandler errors;

    public OperatorNode(Operator operator, OperatorInfo info, ErrorHandler errors) {
        this.operator = operator;
        this.errors = errors;
        operator.bind(this, info);
    }

    @Override
    protected void svcInit() throws Exception {
        operator.info.counters().started().set(true);
        if (errors.deadLetters() != null) {
            errors.deadLetters().started();
        }
        if (operator instanceof WindowOperator window && window.lateSink != null) {
            window.lateSink.started();
        }
        operator.open();
    }

    @Override
    protected Object svc(Object item) throws Exception {
        if (item instanceof Rec rec) {
            try {
                operator.processRecord(rec.value, rec.timestamp);
            } catch (RecordFailure failure) {
                throw failure;
            } catch (Exception error) {
                errors.onFailure(operator.info, rec.value, error);
            }
        } else if (item instanceof Signal signal) {
            try {
                if (signal.isTick()) {
                    operator.processTick();
                } else {
                    operator.processIdle();
                }
            } catch (RecordFailure failure) {
                throw failure;
            } catch (Exception error) {
                throw new RecordFailure(
                        operator.info.qualifiedName(), "processing time " + System.currentTimeMillis(), error);
            }
        } else {
            long time = ((Mark) item).time;
            try {
                operator.advanceWatermark(time);
            } catch (RecordFailure failure) {
                throw failure;
            } catch (Exception error) {
                throw ErrorHandler.atWatermark(operator.info, time, error);
            }
        }
        return goOn();
    }

    @Override
    public void emit(Object value, long timestamp) {
        sendOut(new Rec(value, timestamp));
    }

    @Override
    public void emitWatermark(long time) {
        sendOut(Mark.of(time));
    }

    @Override
    public void emitSignal(Signal signal) {
        sendOut(signal);
    }

    @Override
    public String toString() {
        return "operator " + operator.info.name();
    }
}
