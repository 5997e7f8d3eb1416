package io.spectrum.board.decl;

import com.pi4j.Pi4J;
import com.pi4j.context.Context;
import com.pi4j.plugin.gpiod.provider.gpio.digital.GpioDDigitalInputProvider;
import com.pi4j.plugin.gpiod.provider.gpio.digital.GpioDDigitalOutputProvider;
import com.pi4j.plugin.linuxfs.provider.i2c.LinuxFsI2CProvider;
import com.pi4j.plugin.linuxfs.provider.pwm.LinuxFsPwmProvider;
import com.pi4j.plugin.mock.platform.MockPlatform;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalInputProvider;
import com.pi4j.plugin.mock.provider.gpio.digital.MockDigitalOutputProvider;
import com.pi4j.plugin.mock.provider.i2c.MockI2CProvider;
import com.pi4j.plugin.mock.provider.pwm.MockPwmProvider;

/** The board's pi4j context: the Pi's providers (gpiod, linuxfs) or the mock platform. Loaded only when pins are used. */
final class Pi4jPlatform {
    private Pi4jPlatform() {
    }

    static Context context(boolean mock, int pwmChip) {
        if (mock) {
            return Pi4J.newContextBuilder().add(new MockPlatform())
                    .add(MockDigitalInputProvider.newInstance(), MockDigitalOutputProvider.newInstance(),
                            MockI2CProvider.newInstance(), MockPwmProvider.newInstance())
                    .build();
        }
        return Pi4J.newContextBuilder()
                .add(GpioDDigitalInputProvider.newInstance(), GpioDDigitalOutputProvider.newInstance(),
                        LinuxFsI2CProvider.newInstance(), LinuxFsPwmProvider.newInstance(pwmChip))
                .build();
    }
}
