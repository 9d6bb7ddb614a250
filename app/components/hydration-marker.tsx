'use client';
// Marks the document once React has hydrated it (`<html data-hydrated>`). Until then a value typed
// into a controlled field is the DOM's alone, and the next render puts the state's empty value
// back: the e2e suite waits for this mark before typing (tests/support/e2e/dashboard-user.ts).
import { useEffect } from 'react';

export function HydrationMarker(): null {
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return null;
}
