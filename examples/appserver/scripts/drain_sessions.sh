#!/bin/bash
# SUSPEND: stop accepting sessions and let the open ones finish.
set -euo pipefail
touch appserver/draining
echo "drained the sessions of the application server (action ${deploy_action})"
