"""Makes the small .tflite test models of tests/models/tflite/ with TensorFlow's own
converter, and records TensorFlow Lite Micro's output for each: a tool run once by hand,
whose results are committed, so that neither the build nor CI needs TensorFlow.

Each model is a common Keras architecture at a tiny size with seeded random weights,
converted as a TFLM user converts (full integer: int8 weights, activations, input and
output, calibrated on random data), then run by tflite-micro's Python interpreter (TFLM's
reference kernels) on a seeded int8 input:

  tests/models/tflite/NAME.tflite, NAME.input.npy (NHWC int8), NAME.tflm_output.npy

  python3 -m venv /tmp/tf && /tmp/tf/bin/pip install tensorflow-cpu tflite-micro numpy
  /tmp/tf/bin/python tests/models/make_tflite_models.py   # tensorflow-cpu 2.21,
                                                          # tflite-micro 0.dev2025
"""
import pathlib

import numpy as np
import tensorflow as tf
from tflite_micro.python.tflite_micro import runtime

from tflm_record import record_tflm_case  # tests/models/tflm_record.py, beside this tool

OUT = pathlib.Path(__file__).resolve().parent / "tflite"
layers = tf.keras.layers


def conv_bn(x, filters, kernel=3, strides=1, activation="relu"):
    x = layers.Conv2D(filters, kernel, strides, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    return layers.Activation(activation)(x) if activation else x


def dw_bn(x, strides=1, activation="relu"):
    x = layers.DepthwiseConv2D(3, strides, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    return layers.Activation(activation)(x)


def classifier(x, classes):
    x = layers.GlobalAveragePooling2D()(x)
    return layers.Dense(classes, activation="softmax")(x)


def mobilenet_v1():
    x = inputs = layers.Input((32, 32, 3))
    x = conv_bn(x, 8, strides=2)
    for filters, strides in ((16, 1), (16, 2), (32, 1)):
        x = dw_bn(x, strides)
        x = conv_bn(x, filters, 1)
    return tf.keras.Model(inputs, classifier(x, 4))


def mobilenet_v2():
    relu6 = tf.nn.relu6
    x = inputs = layers.Input((32, 32, 3))
    x = conv_bn(x, 8, strides=2, activation=relu6)
    for expand, out, strides in ((2, 8, 1), (3, 12, 2), (3, 12, 1)):
        shortcut = x
        y = conv_bn(x, x.shape[-1] * expand, 1, activation=relu6)
        y = dw_bn(y, strides, activation=relu6)
        y = conv_bn(y, out, 1, activation=None)
        x = layers.Add()([shortcut, y]) if strides == 1 and shortcut.shape[-1] == out else y
    return tf.keras.Model(inputs, classifier(x, 5))


def ds_cnn():
    x = inputs = layers.Input((49, 10, 1))
    x = conv_bn(x, 16, (10, 4), (2, 2))
    for _ in range(2):
        x = dw_bn(x)
        x = conv_bn(x, 16, 1)
    x = layers.AveragePooling2D((25, 5))(x)
    x = layers.Flatten()(x)
    return tf.keras.Model(inputs, layers.Dense(6, activation="softmax")(x))


def resnet():
    x = inputs = layers.Input((16, 16, 3))
    x = conv_bn(x, 8)
    for filters, strides in ((8, 1), (16, 2)):
        y = conv_bn(x, filters, strides=strides)
        y = conv_bn(y, filters, activation=None)
        if strides != 1:
            x = layers.Conv2D(filters, 1, strides)(x)
        x = layers.Activation("relu")(layers.Add()([x, y]))
    x = layers.AveragePooling2D(8)(x)
    x = layers.Flatten()(x)
    return tf.keras.Model(inputs, layers.Dense(10, activation="softmax")(x))


def unet():
    """Two levels down by max pooling, up by nearest resizing and Concatenate skips; a
    per-pixel output map (rank 4, channels-last)."""
    x = inputs = layers.Input((24, 24, 3))
    skips = []
    for filters in (8, 12):
        x = conv_bn(x, filters)
        skips.append(x)
        x = layers.MaxPooling2D()(x)
    x = conv_bn(x, 16)
    for filters, skip in zip((12, 8), reversed(skips)):
        # Resizing, not UpSampling2D: Keras 3 writes the latter as a repeat (TILE), which
        # TFLM does not run either.
        x = layers.Resizing(x.shape[1] * 2, x.shape[2] * 2, interpolation="nearest")(x)
        x = layers.Concatenate()([x, skip])
        x = conv_bn(x, filters)
    return tf.keras.Model(inputs, layers.Conv2D(2, 1, activation="sigmoid")(x))


def autoencoder():
    x = inputs = layers.Input((64,))
    for units in (32, 8, 32):
        x = layers.Dense(units, activation="relu")(x)
    return tf.keras.Model(inputs, layers.Dense(64)(x))


def squeeze_excite():
    """MobileNetV3-style: hard-swish, and squeeze-excite blocks whose [1, 1, 1, C] gate
    multiplies the [1, H, W, C] map (a broadcast MUL)."""
    x = inputs = layers.Input((24, 24, 3))
    x = conv_bn(x, 12, strides=2, activation="hard_swish")
    for _ in range(2):
        y = dw_bn(x, activation="hard_swish")
        gate = layers.GlobalAveragePooling2D(keepdims=True)(y)
        gate = layers.Conv2D(4, 1, activation="relu")(gate)
        gate = layers.Conv2D(12, 1, activation="hard_sigmoid")(gate)
        y = layers.Multiply()([y, gate])
        x = layers.Add()([x, conv_bn(y, 12, 1, activation=None)])
    return tf.keras.Model(inputs, classifier(x, 3))


MODELS = {
    "keras_mobilenet_v1": mobilenet_v1,
    "keras_mobilenet_v2": mobilenet_v2,
    "keras_ds_cnn": ds_cnn,
    "keras_resnet": resnet,
    "keras_unet": unet,
    "keras_autoencoder": autoencoder,
    "keras_squeeze_excite": squeeze_excite,
}


def convert(model, seed):
    rng = np.random.default_rng(seed)
    shape = (1,) + tuple(model.input_shape[1:])

    def representative():
        for _ in range(32):
            yield [rng.normal(0.0, 1.0, shape).astype(np.float32)]

    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = representative
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = tf.int8
    converter.inference_output_type = tf.int8
    return converter.convert()


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for seed, (name, build) in enumerate(sorted(MODELS.items())):
        tf.keras.utils.set_random_seed(seed)
        model = build()
        # BatchNormalization with its initial statistics is the identity; random moments
        # make the folded weights less regular.
        for layer in model.layers:
            if isinstance(layer, layers.BatchNormalization):
                mean, var = layer.moving_mean, layer.moving_variance
                mean.assign(np.random.default_rng(seed).normal(0, 0.1, mean.shape))
                var.assign(np.random.default_rng(seed + 1).uniform(0.5, 1.5, var.shape))
        flat = convert(model, seed)
        shape = runtime.Interpreter.from_bytes(flat).get_input_details(0)["shape"]
        x = np.random.default_rng(100 + seed).integers(-128, 128, shape).astype(np.int8)
        y = record_tflm_case(OUT, name, flat, x)
        print(f"{name}: {len(flat)} B, input {x.shape}, output {y.shape} {y.dtype}")


if __name__ == "__main__":
    main()
