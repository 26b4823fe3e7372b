#!/bin/bash
# Say in the message of the day which Java the image was built with.
echo "Built with $java_distro." > /etc/motd
