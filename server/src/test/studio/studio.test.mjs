// End-to-end test of Scorecast Studio in Debian's Chromium through playwright-core, against a real
// server process. Run by StudioBrowserTest (Maven), or by hand:
//   STUDIO_BASE_URL=http://127.0.0.1:8150 STUDIO_API_KEY=sc_... STUDIO_VIDEO=clip.mp4 node studio.test.mjs
// Environment: STUDIO_SCREENSHOTS (folder, default ./screenshots), STUDIO_LIVE_SECONDS (how long
// the live stream plays while underruns are counted; 60 for the glitch benchmark, default 12),
// STUDIO_STRICT_GLITCHES=1 (fail on any underrun), CHROMIUM (default /usr/bin/chromium). Prints one JSON line "STUDIO_METRICS {...}" and
// "N passed, N failed".

import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';

const base = process.env.STUDIO_BASE_URL;
const key = process.env.STUDIO_API_KEY;
const videoPath = process.env.STUDIO_VIDEO;
const shots = process.env.STUDIO_SCREENSHOTS || 'screenshots';
const liveSeconds = Number(process.env.STUDIO_LIVE_SECONDS || 12);
const strictGlitches = process.env.STUDIO_STRICT_GLITCHES === '1';
const cuts = (process.env.STUDIO_CUTS || '2,4').split(',').map(Number);
if (!base || !key || !videoPath) {
  console.error('set STUDIO_BASE_URL, STUDIO_API_KEY and STUDIO_VIDEO');
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const axeSource = readFileSync(join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'), 'utf8');

const results = [];
const metrics = {};
let failed = 0;

async function step(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push(`ok   ${name} (${Date.now() - started} ms)`);
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.stack || e}`);
    await shot(`failed-${name.replace(/[^a-z]+/g, '-')}`).catch(() => {});
    throw e;
  }
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

const userDataDir = mkdtempSync(join(tmpdir(), 'scorecast-chromium-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
});
const page = context.pages()[0] || await context.newPage();
const consoleErrors = [];
page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(`${m.text()} at ${m.location().url}`); });
// The refusals and failures this test provokes on purpose (Chromium logs every 4xx/5xx answer and
// dropped connection as an error): each pattern is allowed `times` times.
const provoked = [
  { re: /status of 401 .* at .*\/player\/liveliness$/, times: 1 },
  { re: /status of 415 .* at .*\/sync\/(initialize_video_upload|complete_video_upload)$/, times: 1 },
  { re: /status of 400 .* at .*\/sync\/execute$/, times: 1 },
  { re: /status of 400 .* at .*\/player\/replace_plan$/, times: 1 },
  { re: /(status of 503|ERR_CONNECTION_RESET|ERR_FAILED).* at .*\/sync\/upload_chunk$/, times: 20 },
];

async function shot(name) {
  const size = page.viewportSize();
  await page.screenshot({ path: join(shots, `${name}-${size.width}x${size.height}.png`), fullPage: true });
}

async function axe(label) {
  // Evaluated through the debugging protocol, which the page's Content-Security-Policy does not govern.
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  check(violations.length === 0, `axe (${label}): ${violations.join('; ')}`);
}

const liveOf = (control) => page.evaluate((c) => window.scorecastStudio.metrics.live.filter((m) => m.control === c), control);

async function waitLive(control, count) {
  await page.waitForFunction(([c, n]) => window.scorecastStudio.metrics.live.filter((m) => m.control === c).length >= n,
    [control, count], { timeout: 15000 });
  return liveOf(control);
}

try {
  await step('sign in', async () => {
    await page.goto(base + '/');
    await shot('01-sign-in');
    // The keyboard: the skip link first, then the key field.
    await page.keyboard.press('Tab');
    check(await page.evaluate(() => document.activeElement.classList.contains('skip')), 'the skip link is focused first');
    await page.keyboard.press('Tab');
    check(await page.evaluate(() => document.activeElement.id === 'api-key'), 'then the API key field');
    await page.getByTestId('api-key').fill('sc_wrong');
    await page.getByTestId('sign-in').click();
    await page.locator('#sign-in-error').filter({ hasText: 'not valid' }).waitFor();
    await page.getByTestId('api-key').fill(key);
    await page.getByTestId('api-key').press('Enter');
    await page.locator('#studio').waitFor({ state: 'visible' });
    check(await page.evaluate(() => !location.href.includes('sc_')), 'the key must never be in the URL');
    check(await page.evaluate(() => sessionStorage.getItem('scorecast.apiKey') !== null), 'the key is kept in sessionStorage');
  });

  await step('upload and analyse', async () => {
    const thumbnails = page.waitForResponse((r) => r.url().includes('/sync/thumbnails?'), { timeout: 90000 });
    await page.getByTestId('file-input').setInputFiles(videoPath);
    await page.waitForFunction(() => document.querySelector('[data-testid=upload-progress]').value === 1, null, { timeout: 30000 });
    check(/%|Uploaded/.test(await page.locator('#upload-text').textContent()), 'upload progress text');
    await page.locator('#analysis-status').filter({ hasText: 'Analysis finished' }).waitFor({ timeout: 60000 });
    const label = await page.getByTestId('timeline').getAttribute('aria-label');
    const shown = [...label.matchAll(/cut at (\d+\.\d+) s/g)].map((m) => Number(m[1]));
    check(cuts.every((c) => shown.some((t) => Math.abs(t - c) <= 0.05)), `the timeline shows the cuts at ${cuts} s: ${label}`);
    const box = await page.getByTestId('timeline').boundingBox();
    await page.mouse.move(box.x + box.width * 0.5, box.y + 120);
    await page.locator('#timeline-tip').filter({ hasText: 'energy' }).waitFor();
    const strip = await thumbnails;
    check(strip.status() === 200 && strip.headers()['content-type'] === 'image/jpeg', `thumbnails answered ${strip.status()}`);
    await page.waitForTimeout(300);
    await shot('02-analysis');
  });

  await step('a refused file shows the API message', async () => {
    const notVideo = join(userDataDir, 'notes.mp4');
    writeFileSync(notVideo, 'these are not the frames you are looking for\n'.repeat(200));
    await page.getByTestId('file-input').setInputFiles(notVideo);
    await page.locator('#upload-error').filter({ hasText: 'refused' }).waitFor({ timeout: 30000 });
    metrics.refusal = await page.locator('#upload-error').textContent();
    check(/not a video/.test(metrics.refusal), `the API's own message: ${metrics.refusal}`);
  });

  await step('a dropped chunk is sent again; a reload resumes the upload', async () => {
    await page.evaluate(() => localStorage.setItem('scorecast.chunkBytes', String(256 * 1024)));
    const sent = [];
    let dropped = false;
    // Chunk 1 loses its connection once (sent again at once); chunks from 3 on are refused until the reload.
    await page.route('**/sync/upload_chunk', async (route) => {
      const index = Number(route.request().headers()['x-chunk-index']);
      if (index === 1 && !dropped) {
        dropped = true;
        return route.abort('connectionreset');
      }
      if (index >= 3) {
        return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"busy","message":"test: the server went away"}' });
      }
      sent.push(index);
      return route.continue();
    });
    await page.getByTestId('file-input').setInputFiles(videoPath);
    await page.locator('#upload-error').filter({ hasText: 'went away' }).waitFor({ timeout: 60000 });
    check(dropped && sent.includes(1), `the dropped chunk was sent again: ${sent}`);
    await page.unroute('**/sync/upload_chunk');
    await page.reload();
    await page.locator('#studio').waitFor({ state: 'visible' });
    const after = [];
    page.on('request', (r) => { if (r.url().endsWith('/sync/upload_chunk')) after.push(Number(r.headers()['x-chunk-index'])); });
    await page.getByTestId('file-input').setInputFiles(videoPath);
    await page.locator('#upload-text').filter({ hasText: 'Uploaded' }).waitFor({ timeout: 60000 });
    check(after.length > 0 && after.every((i) => i >= 3), `only the missing chunks were sent after the reload: ${after}`);
    metrics.resumed = { before: [...new Set(sent)].sort(), after };
    await page.locator('#analysis-status').filter({ hasText: 'Analysis finished' }).waitFor({ timeout: 60000 });
    await page.evaluate(() => localStorage.removeItem('scorecast.chunkBytes'));
  });

  let tempo;
  await step('generate and edit with a validation error', async () => {
    await page.locator('#opt-seed').fill('3');
    await page.getByTestId('generate').click();
    await page.getByTestId('plan-editor').locator('fieldset.section').first().waitFor();
    tempo = await page.locator('#plan-sections-0-tempo').inputValue();
    await shot('03-plan');
    await page.locator('#plan-sections-0-tempo').fill('300');
    await page.getByTestId('execute').click();
    const error = page.locator('#plan-sections-0-tempo-error');
    await error.filter({ hasText: 'tempo' }).waitFor();
    check(/40 to 240/.test(await error.textContent()), 'the tempo error says the range');
    check(await page.locator('#plan-sections-0-tempo').getAttribute('aria-invalid') === 'true', 'the field is marked invalid');
    await shot('04-plan-error');
    await page.locator('#plan-sections-0-tempo').fill(tempo);
  });

  await step('execute and play the result', async () => {
    await page.getByTestId('execute').click();
    await page.locator('#result').waitFor({ state: 'visible', timeout: 150000 });
    check(/Finished|finished/.test(await page.getByTestId('execution-status').textContent()), 'finished status');
    const played = await page.evaluate(async () => {
      const v = document.querySelector('[data-testid=result-video]');
      if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
      v.muted = true;
      await v.play();
      await new Promise((r) => setTimeout(r, 1200));
      return { duration: v.duration, time: v.currentTime, expected: window.scorecastStudio.state.video.duration };
    });
    metrics.result = played;
    check(Math.abs(played.duration - played.expected) < 0.1, `result duration ${played.duration} vs video ${played.expected}`);
    check(played.time > 0.5, `the result plays (currentTime ${played.time})`);
    await page.evaluate(() => document.querySelector('[data-testid=result-video]').pause());
    const stems = await page.getByTestId('download-stems').getAttribute('href');
    const response = await page.request.get(stems);
    check(response.status() === 200, `stems link answered ${response.status()}`);
    const body = await response.body();
    check(body[0] === 0x50 && body[1] === 0x4b, 'the stems are a zip');
    await page.waitForTimeout(500);
    await shot('05-result');
    await axe('score');
  });

  await step('my videos', async () => {
    await page.locator('.tab[data-panel=library-panel]').click();
    await page.locator('#library article').first().waitFor();
    check(/finished/.test(await page.locator('#library').textContent()), 'the execution is listed');
    await shot('06-library');
    await axe('library');
    // Reopen the execution: its plan comes back in the editor and its video in the player.
    await page.locator('#library button', { hasText: /^Open$/ }).first().click();
    await page.locator('#plan-status').filter({ hasText: 'Plan plan_' }).waitFor();
    await page.getByTestId('plan-editor').locator('fieldset.section').first().waitFor();
    await page.locator('#result').waitFor({ state: 'visible' });
    check((await page.getByTestId('result-video').getAttribute('src')).includes('/files/exe_'), 'the reopened video');
    check(!(await page.getByTestId('execute').isDisabled()), 'the reopened plan can be executed again');
  });

  await step('live: play, transport, intensity, stop', async () => {
    await page.locator('.tab[data-panel=live-panel]').click();
    await page.locator('#live-experience').selectOption('house-rooftop');
    await page.getByTestId('live-play').click();
    const play = await waitLive('play', 1);
    metrics.firstSoundMs = play[0].ms;
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('#t-bar').textContent));
    const bar0 = Number(await page.locator('#t-bar').textContent());
    await page.waitForTimeout(2500);
    const bar1 = Number(await page.locator('#t-bar').textContent());
    check(bar1 > bar0, `live-transport advances (bar ${bar0} -> ${bar1})`);
    const tempo0 = Number(await page.locator('#t-tempo').textContent());
    const slider = page.getByTestId('live-intensity');
    await slider.focus();
    await slider.press('End');
    const first = await waitLive('set_intensity', 1);
    await page.waitForTimeout(1500);
    const tempo1 = Number(await page.locator('#t-tempo').textContent());
    check(tempo1 > tempo0 + 1, `the tempo rises with the intensity (${tempo0} -> ${tempo1})`);
    await slider.press('Home');
    await waitLive('set_intensity', 2);
    await page.waitForTimeout(800);
    await slider.press('End');
    const intensity = await waitLive('set_intensity', 3);
    metrics.intensityToEarMs = intensity.map((m) => m.ms);
    metrics.intensityAnsweredMs = intensity.map((m) => m.answeredMs);
    check(first.length >= 1, 'intensity measured');
    const vocals = page.getByTestId('live-vocals');
    await vocals.focus();
    await vocals.press('Space');
    await page.locator('#live-status').filter({ hasText: /Vocals (on|off) from bar \d+/ }).waitFor();
    await page.locator('#live-load-plan').click();
    await page.waitForFunction(() => document.querySelector('#live-plan').value.includes('sections'));
    const livePlan = JSON.parse(await page.locator('#live-plan').inputValue());
    livePlan.sections[0].tempo = 500;
    await page.locator('#live-plan').fill(JSON.stringify(livePlan, null, 2));
    await page.locator('#live-send-plan').click();
    await page.locator('#live-plan-error').filter({ hasText: 'sections[0].tempo' }).waitFor();
    livePlan.sections[0].tempo = 100;
    livePlan.sections[0].key = 'D';
    livePlan.sections[0].bars = Math.max(1, Math.round((livePlan.sections[0].end - livePlan.sections[0].start) * 100 / 60 / 4));
    livePlan.sections[0].end = livePlan.sections[0].start + livePlan.sections[0].bars * 4 * 60 / 100;
    const shift = livePlan.sections[0].end - livePlan.sections[1].start;
    livePlan.sections.slice(1).forEach((x) => {
      x.start += shift;
      x.end += shift;
      if (x.hit) x.hit.time += shift;
      (x.accents || []).forEach((a) => { a.time += shift; });
    });
    livePlan.duration = livePlan.sections[livePlan.sections.length - 1].end;
    await page.locator('#live-plan').fill(JSON.stringify(livePlan, null, 2));
    await page.locator('#live-send-plan').click();
    await page.locator('#live-status').filter({ hasText: 'The new plan plays from bar' }).waitFor();
    await shot('07-live');
    await axe('live');
    // Count glitches while it plays.
    const before = await page.evaluate(() => window.scorecastStudio.live.player.stats());
    await page.waitForTimeout(liveSeconds * 1000);
    const after = await page.evaluate(() => window.scorecastStudio.live.player.stats());
    metrics.live = { seconds: liveSeconds, underruns: after.underruns - before.underruns, underrunsSincePlay: after.underruns, splices: after.splices - before.splices,
      splicedMs: Math.round(after.splicedMs - before.splicedMs), marginMs: after.marginMs,
      bufferedMs: Math.round(after.bufferedMs), outputDelayMs: after.outputDelayMs,
      framesReceived: after.framesReceived - before.framesReceived };
    await page.locator('#live-stop').click();
    const stops = await waitLive('stop', 2);
    metrics.stopToEarMs = Object.fromEntries(stops.map((m) => [m.method, m.ms]));
    check(metrics.firstSoundMs < 1000, `first sound within 1 s of the click: ${metrics.firstSoundMs} ms`);
    // The median of three moves: after an underrun the jitter buffer grows by design (no glitch over a
    // short delay), and a CI machine can be busy enough to cause one.
    const median = [...metrics.intensityToEarMs].sort((a, b) => a - b)[1];
    check(median < 400, `set_intensity heard within 400 ms (median of three): ${metrics.intensityToEarMs}`);
    check(metrics.stopToEarMs.frame < 400, `stop heard within 400 ms: ${JSON.stringify(metrics.stopToEarMs)}`);
    if (strictGlitches) {
      // The glitch benchmark (docs/STUDIO.md): on a machine as busy as a shared CI box the server itself renders late now and then.
      check(metrics.live.underruns === 0, `no underruns over ${liveSeconds} s: ${metrics.live.underruns}`);
    }
  });

  if (strictGlitches) {
    await step('reference: a plain <audio> element on the same stream', async () => {
      // What the studio's player replaces, measured in the same browser and run: the same experience
      // through <audio src=stream_url> (WAV), first sound through an AnalyserNode on the element.
      metrics.plainAudio = await page.evaluate(async (k) => {
        const auth = { Authorization: `Bearer ${k}` };
        await fetch('/player/end_stream', { method: 'POST', headers: auth });
        window.scorecastStudio.live.hasStream = false;
        window.scorecastStudio.live.player.disconnect();
        const created = await (await fetch('/player/create-stream', { method: 'POST', headers: auth })).json();
        window.scorecastStudio.live.hasStream = true; // so that End stream ends this one
        const audio = new Audio();
        audio.crossOrigin = 'anonymous';
        audio.src = created.stream_urls.wav;
        const ctx = new AudioContext();
        const analyser = new AnalyserNode(ctx, { fftSize: 256 });
        ctx.createMediaElementSource(audio).connect(analyser).connect(ctx.destination);
        const data = new Float32Array(256);
        const clicked = performance.now();
        await fetch('/player/start', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ experience_id: 'house-rooftop' }) });
        audio.play();
        const firstSound = await new Promise((resolve) => {
          const timer = setInterval(() => {
            analyser.getFloatTimeDomainData(data);
            if (data.some((x) => Math.abs(x) > 0.002)) {
              clearInterval(timer);
              resolve(performance.now() - clicked + ((ctx.outputLatency || 0) + (ctx.baseLatency || 0)) * 1000);
            }
          }, 4);
        });
        await new Promise((r) => setTimeout(r, 6000));
        const ahead = audio.buffered.length ? audio.buffered.end(audio.buffered.length - 1) - audio.currentTime : null;
        audio.pause();
        audio.removeAttribute('src');
        audio.load();
        await ctx.close();
        return { firstSoundMs: Math.round(firstSound), bufferedAheadMs: ahead === null ? null : Math.round(ahead * 1000) };
      }, key);
    });
  }

  await step('phone size', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await shot('07-live');
    await axe('live, phone');
    await page.locator('.tab[data-panel=score-panel]').click();
    await page.waitForTimeout(300);
    await shot('05-result');
    await axe('score, phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 0, `no sideways scrolling at 390 px (${overflow} px too wide)`);
    await page.locator('.tab[data-panel=live-panel]').click();
    await page.locator('#live-end').click();
    await page.locator('#live-status').filter({ hasText: 'ended' }).waitFor();
    await page.locator('#sign-out').click();
    await page.getByTestId('api-key').waitFor({ state: 'visible' });
    await shot('01-sign-in');
  });

  await step('no console errors', async () => {
    const unexpected = consoleErrors.filter((text) => {
      const p = provoked.find((x) => x.times > 0 && x.re.test(text));
      if (!p) return true;
      p.times--;
      return false;
    });
    check(unexpected.length === 0, `console errors: ${unexpected.join(' | ')}`);
  });
} catch (e) {
  // reported by step()
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
console.log(`STUDIO_METRICS ${JSON.stringify(metrics)}`);
console.log(`${results.length} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
