package org.fastflowj.examples.matsquare;

import org.fastflowj.dist.ItemSerializer;
import org.fastflowj.dist.WireInput;
import org.fastflowj.dist.WireOutput;

/** A {@link Matrix} on the wire: id, order, then the n*n doubles in one bulk copy (zero-copy layout). */
final class MatrixSerializer implements ItemSerializer<Matrix> {
    @Override
    public void write(Matrix m, WireOutput out) {
        out.writeInt(m.id);
        out.writeInt(m.n);
        out.writeDoubles(m.values, 0, m.values.length);
    }

    @Override
    public Matrix read(WireInput in) {
        int id = in.readInt();
        int n = in.readInt();
        if (n < 0 || (long) n * n * Double.BYTES != in.readableBytes()) {
            throw new IllegalArgumentException(
                    "matrix " + id + ": order " + n + " does not match " + in.readableBytes() + " bytes of values");
        }
        double[] values = new double[n * n];
        in.readDoubles(values, 0, values.length);
        return new Matrix(id, n, values);
    }
}
