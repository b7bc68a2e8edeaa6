#pragma once
// A live source whose stream can go away and come back (a network stream) keeps trying inside
// next() instead of ending the run. What it needs from the run loop: where to report the
// outage's events as they happen (camera_offline while it waits, not when the frames return),
// and whether to stop waiting. esf::run() hands both over; wrappers (ForwardingSource) pass them
// on to the source they wrap.
#include <functional>

#include "esframe/health.hpp"

namespace esf {

struct OutageHooks {
  std::function<void(const HealthEvent&)> report;  // empty: the events are only logged
  std::function<bool()> stop_requested;            // empty: never
};

class OutageReporting {
 public:
  // Replaces the hooks; empty hooks detach them (before the run loop's state goes).
  virtual void setOutageHooks(OutageHooks hooks) = 0;

 protected:
  ~OutageReporting() = default;
};

}  // namespace esf
