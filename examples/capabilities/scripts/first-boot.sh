#!/bin/sh
echo first boot
