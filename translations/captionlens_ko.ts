<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>QObject</name>
    <message>
        <source>a scene colour must be three numbers 0..255</source>
        <translation>장면의 색은 0..255 범위의 숫자 세 개여야 합니다</translation>
    </message>
    <message>
        <source>unknown %1 &apos;%2&apos; in the scene</source>
        <translation>장면에 알 수 없는 %1 &apos;%2&apos;이(가) 있습니다</translation>
    </message>
    <message>
        <source>lesson field &apos;%1&apos; must be a whole number in %2..%3</source>
        <translation>레슨 필드 &apos;%1&apos;은(는) %2..%3 범위의 정수여야 합니다</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 또는 false</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>숫자</translation>
    </message>
    <message>
        <source>text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>목록</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>객체</translation>
    </message>
    <message>
        <source>lesson field &apos;%1&apos; must be %2</source>
        <translation>레슨 필드 &apos;%1&apos;은(는) %2이어야 합니다</translation>
    </message>
    <message>
        <source>scene field &apos;%1&apos; must be a number in %2..%3</source>
        <translation>장면 필드 &apos;%1&apos;은(는) %2..%3 범위의 숫자여야 합니다</translation>
    </message>
    <message>
        <source>a lesson scene holds at most 8 objects, this one %1</source>
        <translation>레슨 장면에는 객체를 최대 8개까지 둘 수 있지만, 이 장면에는 %1개가 있습니다</translation>
    </message>
    <message>
        <source>the lesson names the bundled file %1, but this CaptionLens has no bundled files (share/captionlens) next to it</source>
        <translation>레슨이 번들 파일 %1을(를) 지정하지만, 이 CaptionLens 옆에는 번들 파일(share/captionlens)이 없습니다</translation>
    </message>
    <message>
        <source>the lesson&apos;s embedded image is not readable: %1</source>
        <translation>레슨에 포함된 이미지를 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>unknown input kind &apos;%1&apos;</source>
        <translation>알 수 없는 입력 종류입니다: &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1 has %2 rows; row %3 does not exist</source>
        <translation>%1에는 행이 %2개 있습니다. %3행은 존재하지 않습니다</translation>
    </message>
    <message>
        <source>row %1 of %2 holds NaN, an infinity or a magnitude of 1e6 or more; features must be finite</source>
        <translation>%2의 %1행에 NaN, 무한대 또는 절댓값이 1e6 이상인 값이 있습니다. 특징 값은 유한해야 합니다</translation>
    </message>
    <message>
        <source>%1 is over %2 MiB; a lesson is at most that</source>
        <translation>%1의 크기가 %2 MiB를 넘습니다. 레슨은 이 크기를 넘을 수 없습니다</translation>
    </message>
    <message>
        <source>%1 is not a lesson: %2</source>
        <translation>%1은(는) 레슨이 아닙니다: %2</translation>
    </message>
    <message>
        <source>%1 is not a CaptionLens lesson (no format tag)</source>
        <translation>%1은(는) CaptionLens 레슨이 아닙니다(형식 태그 없음)</translation>
    </message>
    <message>
        <source>%1 is a lesson of version %2; this CaptionLens reads version 1</source>
        <translation>%1은(는) 버전 %2 레슨입니다. 이 CaptionLens는 버전 1을 읽습니다</translation>
    </message>
    <message>
        <source>the lesson compares %1 checkpoints; at most %2</source>
        <translation>레슨이 체크포인트 %1개를 비교합니다. 최대 %2개까지 가능합니다</translation>
    </message>
    <message>
        <source>lesson field &apos;compare.paths&apos; must be a list of file names</source>
        <translation>레슨 필드 &apos;compare.paths&apos;는 파일 이름 목록이어야 합니다</translation>
    </message>
    <message>
        <source>lesson field &apos;selection.opacity&apos; must be a number in 0..1</source>
        <translation>레슨 필드 &apos;selection.opacity&apos;는 0..1 범위의 숫자여야 합니다</translation>
    </message>
    <message>
        <source>the lesson switches %1 heads; at most %2</source>
        <translation>레슨이 헤드 %1개의 끄기 여부를 지정합니다. 최대 %2개까지 가능합니다</translation>
    </message>
    <message>
        <source>lesson field &apos;heads_off&apos; must be a list of 0/1 or true/false</source>
        <translation>레슨 필드 &apos;heads_off&apos;는 0/1 또는 true/false의 목록이어야 합니다</translation>
    </message>
    <message>
        <source> · val BLEU-1 %1, BLEU-4 %2, exact %3 %, loss %4</source>
        <translation> · 검증 BLEU-1 %1, BLEU-4 %2, 정확 일치 %3 %, 손실 %4</translation>
    </message>
    <message>
        <source> (%1 steps)</source>
        <translation> (%1 스텝)</translation>
    </message>
    <message>
        <source>— not in vocabulary</source>
        <translation>— 어휘에 없음</translation>
    </message>
    <message>
        <source>%1 %2 vs %3 %4: %5 bits</source>
        <translation>%1 %2 대 %3 %4: %5 비트</translation>
    </message>
    <message>
        <source>peak on the object ✓</source>
        <translation>최댓값이 객체 위에 있음 ✓</translation>
    </message>
    <message>
        <source>peak off the object ✗</source>
        <translation>최댓값이 객체 밖에 있음 ✗</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#d73c32&apos;&gt;del&lt;/span&gt; %1 · &lt;span style=&apos;color:#286ed2&apos;&gt;ins&lt;/span&gt; %2</source>
        <translation>&lt;span style=&apos;color:#d73c32&apos;&gt;삭제&lt;/span&gt; %1 · &lt;span style=&apos;color:#286ed2&apos;&gt;삽입&lt;/span&gt; %2</translation>
    </message>
    <message>
        <source>&amp;lt; 1 ms</source>
        <translation>&amp;lt; 1 ms</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>gap %1 % · %2</source>
        <translation>차이 %1 % · %2</translation>
    </message>
    <message>
        <source>Cross-attention %1</source>
        <translation>크로스 어텐션 %1</translation>
    </message>
    <message>
        <source>IG (black)</source>
        <translation>IG (검은색)</translation>
    </message>
    <message>
        <source>IG (blurred)</source>
        <translation>IG (흐림)</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>창</translation>
    </message>
    <message>
        <source>Panel</source>
        <translation>패널</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>키보드 단축키</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>키</translation>
    </message>
    <message>
        <source>What it does</source>
        <translation>기능</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>no model loaded</source>
        <translation>불러온 모델 없음</translation>
    </message>
    <message>
        <source>%1: %2 layers × %3 heads, width %4, %5 memory, vocabulary %6, %7 parameters</source>
        <translation>%1: 레이어 %2개 × 헤드 %3개, 너비 %4, %5 메모리, 어휘 %6, 파라미터 %7개</translation>
    </message>
    <message>
        <source>&lt;h3&gt;CaptionLens %1&lt;/h3&gt;&lt;p&gt;See inside an image-captioning transformer: captions, attention heads, positional encoding and decoding, for teaching.&lt;/p&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;Qt&lt;/td&gt;&lt;td&gt;%2&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;LibTorch&lt;/td&gt;&lt;td&gt;%3&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;BLAS&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Model&lt;/td&gt;&lt;td&gt;%5&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;h3&gt;CaptionLens %1&lt;/h3&gt;&lt;p&gt;교육을 위해 이미지 캡셔닝 트랜스포머의 내부(캡션, 어텐션 헤드, 위치 인코딩, 디코딩)를 들여다봅니다.&lt;/p&gt;&lt;table&gt;&lt;tr&gt;&lt;td&gt;Qt&lt;/td&gt;&lt;td&gt;%2&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;LibTorch&lt;/td&gt;&lt;td&gt;%3&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;BLAS&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;모델&lt;/td&gt;&lt;td&gt;%5&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <source>Quick Tour</source>
        <translation>빠른 둘러보기</translation>
    </message>
    <message>
        <source>Each lesson reopens a teaching moment on the bundled model: its scene, panel and selection. Open one, look, then try your own changes.</source>
        <translation>각 레슨은 번들 모델로 보여 주는 교육 상황 하나를 그 장면, 패널, 선택 상태와 함께 다시 엽니다. 레슨을 열어 살펴본 다음 직접 바꿔 보세요.</translation>
    </message>
    <message>
        <source>No sample lessons found in %1</source>
        <translation>%1에서 예제 레슨을 찾을 수 없습니다</translation>
    </message>
</context>
<context>
    <name>cl::CaptionWorker</name>
    <message>
        <source>unexpected failure while loading %1</source>
        <translation>%1을(를) 불러오는 중 예기치 않은 오류가 발생했습니다</translation>
    </message>
    <message>
        <source>no model is loaded; open a checkpoint first</source>
        <translation>불러온 모델이 없습니다. 먼저 체크포인트를 여세요</translation>
    </message>
    <message>
        <source>this model captions images; open an image</source>
        <translation>이 모델은 이미지에 캡션을 붙입니다. 이미지를 여세요</translation>
    </message>
    <message>
        <source>this model reads feature vectors; open a feature file (.npy or .h5) or a course folder</source>
        <translation>이 모델은 특징 벡터를 읽습니다. 특징 파일(.npy 또는 .h5)이나 강의 폴더를 여세요</translation>
    </message>
    <message>
        <source>the feature row has width %1 but the model expects %2</source>
        <translation>특징 행의 너비는 %1이지만 모델은 %2을(를) 요구합니다</translation>
    </message>
    <message>
        <source>unexpected failure while captioning</source>
        <translation>캡션을 생성하는 중 예기치 않은 오류가 발생했습니다</translation>
    </message>
    <message>
        <source>explanations need an image model</source>
        <translation>설명에는 이미지 모델이 필요합니다</translation>
    </message>
    <message>
        <source>the Circuits panel pairs two images; for a course feature model use captionlens-cli patch --features</source>
        <translation>회로 패널은 두 이미지를 쌍으로 사용합니다. 강의 특징 모델에는 captionlens-cli patch --features를 사용하세요</translation>
    </message>
</context>
<context>
    <name>cl::CompareWorker</name>
    <message>
        <source>unexpected failure while loading %1</source>
        <translation>%1을(를) 불러오는 중 예기치 않은 오류가 발생했습니다</translation>
    </message>
</context>
<context>
    <name>cl::ui::Animation</name>
    <message>
        <source>the head average</source>
        <translation>헤드 평균</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>헤드 %1</translation>
    </message>
    <message>
        <source>Greedy decoding: word %1 of %2</source>
        <translation>그리디 디코딩: 단어 %1 / %2</translation>
    </message>
    <message>
        <source>Cross-attention of “%1”: layer %2, %3</source>
        <translation>“%1”의 크로스 어텐션: 레이어 %2, %3</translation>
    </message>
    <message>
        <source>The caption so far</source>
        <translation>지금까지의 캡션</translation>
    </message>
    <message>
        <source>Candidates for word %1</source>
        <translation>단어 %1의 후보</translation>
    </message>
    <message>
        <source>The caption</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>레이어 %1</translation>
    </message>
    <message>
        <source>avg</source>
        <translation>평균</translation>
    </message>
    <message>
        <source>“%1”: cross-attention, layer %2, %3</source>
        <translation>“%1”: 크로스 어텐션, 레이어 %2, %3</translation>
    </message>
    <message>
        <source>%1 bits of entropy (lower: sharper)</source>
        <translation>엔트로피 %1비트 (낮을수록 집중됨)</translation>
    </message>
    <message>
        <source>Training: %1 (%2 of %3)</source>
        <translation>학습: %1 (%2 / %3)</translation>
    </message>
    <message>
        <source>Its caption</source>
        <translation>이 스냅샷의 캡션</translation>
    </message>
    <message>
        <source>an animation needs frames, each with its time</source>
        <translation>애니메이션에는 각자 시간이 있는 프레임이 필요합니다</translation>
    </message>
    <message>
        <source>an animation&apos;s frames must be 1 to 4096 pixels a side</source>
        <translation>애니메이션 프레임의 한 변은 1~4096픽셀이어야 합니다</translation>
    </message>
    <message>
        <source>an animation&apos;s frames must all have one size</source>
        <translation>애니메이션 프레임은 모두 같은 크기여야 합니다</translation>
    </message>
    <message>
        <source>the colours of frame %1 could not be counted</source>
        <translation>프레임 %1의 색을 셀 수 없습니다</translation>
    </message>
    <message>
        <source>no palette could be made for the animation</source>
        <translation>애니메이션의 팔레트를 만들 수 없습니다</translation>
    </message>
    <message>
        <source>frame %1 could not be mapped to the palette</source>
        <translation>프레임 %1을(를) 팔레트에 맞출 수 없습니다</translation>
    </message>
    <message>
        <source>the GIF writer could not start</source>
        <translation>GIF 작성기를 시작할 수 없습니다</translation>
    </message>
    <message>
        <source>the GIF could not be written (%1)</source>
        <translation>GIF를 쓸 수 없습니다 (%1)</translation>
    </message>
</context>
<context>
    <name>cl::ui::AnimationDialog</name>
    <message>
        <source>Export Animation</source>
        <translation>애니메이션 내보내기</translation>
    </message>
    <message>
        <source>Decoding, word by word</source>
        <translation>디코딩, 한 단어씩</translation>
    </message>
    <message>
        <source>The selected word through every layer and head</source>
        <translation>선택한 단어를 모든 레이어와 헤드에 걸쳐</translation>
    </message>
    <message>
        <source>The training run&apos;s snapshots (Timeline panel)</source>
        <translation>학습 실행의 스냅샷 (타임라인 패널)</translation>
    </message>
    <message>
        <source>Open a training run in the Timeline panel first</source>
        <translation>먼저 타임라인 패널에서 학습 실행을 여십시오</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>How long each frame stays; the last one stays three times as long</source>
        <translation>각 프레임이 머무는 시간입니다. 마지막 프레임은 세 배 동안 머뭅니다</translation>
    </message>
    <message>
        <source>%1 × %2 pixels</source>
        <translation>%1 × %2 픽셀</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>내보내기</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>보여줄 것:</translation>
    </message>
    <message>
        <source>Frame time:</source>
        <translation>프레임 시간:</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>크기:</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>파일:</translation>
    </message>
    <message>
        <source>Export animation</source>
        <translation>애니메이션 내보내기</translation>
    </message>
    <message>
        <source>GIF animation (*.gif)</source>
        <translation>GIF 애니메이션 (*.gif)</translation>
    </message>
</context>
<context>
    <name>cl::ui::AttentionPanel</name>
    <message>
        <source>Auto contrast (each map to its peak)</source>
        <translation>자동 대비(각 맵을 자체 최댓값에 맞춤)</translation>
    </message>
    <message>
        <source>Off: every map uses the fixed range 0..1, so maps compare. On: each map spans its own min..max.</source>
        <translation>끄면: 모든 맵이 고정 범위 0..1을 사용하므로 맵끼리 비교할 수 있습니다. 켜면: 각 맵이 자체 최솟값..최댓값 범위를 사용합니다.</translation>
    </message>
    <message>
        <source>Masked self-attention: every layer × head (click one; title shows mean entropy, low = sharp)</source>
        <translation>마스크드 셀프 어텐션: 모든 레이어 × 헤드 (하나를 클릭하세요. 제목에 평균 엔트로피가 표시되며, 낮을수록 집중된 어텐션입니다)</translation>
    </message>
    <message>
        <source>This model&apos;s memory is a single feature vector (the course&apos;s CaptioningTransformer). Attention over one key is always 1.0, so cross-attention shows nothing. Image models with a grid memory (like the bundled one) show where each word looked.</source>
        <translation>이 모델의 메모리는 특징 벡터 하나입니다(강의의 CaptioningTransformer). 키가 하나뿐이면 어텐션은 항상 1.0이므로 크로스 어텐션에는 아무것도 나타나지 않습니다. (번들 모델처럼) 격자 메모리를 가진 이미지 모델은 각 단어가 어디를 보았는지 보여 줍니다.</translation>
    </message>
    <message>
        <source>Cross-attention: where words look in the image</source>
        <translation>크로스 어텐션: 단어가 이미지의 어디를 보는지</translation>
    </message>
    <message>
        <source>1 head per layer</source>
        <translation>레이어당 헤드 1개</translation>
    </message>
    <message>
        <source>%1 heads per layer</source>
        <translation>레이어당 헤드 %1개</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1, assumed at import&lt;/b&gt; (a state_dict does not record it; check with import-cs231n --heads auto)</source>
        <translation>&lt;b&gt;%1, 가져올 때 가정한 값&lt;/b&gt; (state_dict에는 이 값이 기록되지 않습니다. import-cs231n --heads auto로 확인하세요)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1
%2 bits</source>
        <translation>%1
%2 비트</translation>
    </message>
    <message>
        <source>Self-attention %1</source>
        <translation>셀프 어텐션 %1</translation>
    </message>
    <message>
        <source>Word “%1” (step %2): every layer × head</source>
        <translation>단어 “%1” (스텝 %2): 모든 레이어 × 헤드</translation>
    </message>
    <message>
        <source>%1: mean cross-attention entropy %2 bits over the caption (max %3)</source>
        <translation>%1: 캡션 전체의 평균 크로스 어텐션 엔트로피 %2 비트 (최대 %3)</translation>
    </message>
    <message>
        <source>%1: every word</source>
        <translation>%1: 모든 단어</translation>
    </message>
</context>
<context>
    <name>cl::ui::BeamPanel</name>
    <message>
        <source>Hypotheses kept each step (1 is greedy decoding)</source>
        <translation>각 스텝에서 유지하는 가설 수 (1이면 그리디 디코딩)</translation>
    </message>
    <message>
        <source>Length penalty alpha: score = log P / ((5 + length) / 6)^alpha</source>
        <translation>길이 페널티 alpha: 점수 = log P / ((5 + 길이) / 6)^alpha</translation>
    </message>
    <message>
        <source>&amp;Search</source>
        <translation>탐색(&amp;S)</translation>
    </message>
    <message>
        <source>Back to &amp;greedy</source>
        <translation>그리디로 돌아가기(&amp;G)</translation>
    </message>
    <message>
        <source>Beam width K</source>
        <translation>빔 너비 K</translation>
    </message>
    <message>
        <source>Length penalty</source>
        <translation>길이 페널티</translation>
    </message>
    <message>
        <source>Open an image, then search.</source>
        <translation>이미지를 연 다음 탐색하세요.</translation>
    </message>
    <message>
        <source>Click a hypothesis to show it, with its attention, in every panel</source>
        <translation>가설을 클릭하면 그 가설과 어텐션이 모든 패널에 표시됩니다</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>log P (cumulative)</source>
        <translation>log P (누적)</translation>
    </message>
    <message>
        <source>Every candidate the beam weighed: kept (normal), finished (bold), pruned (faded)</source>
        <translation>빔이 검토한 모든 후보: 유지됨(보통), 완료됨(굵게), 제거됨(흐리게)</translation>
    </message>
    <message>
        <source>Greedy: %1</source>
        <translation>그리디: %1</translation>
    </message>
    <message>
        <source>Searching with K = %1…</source>
        <translation>K = %1로 탐색하는 중…</translation>
    </message>
    <message>
        <source>Greedy: %1
Beam (K = %2): %3%4</source>
        <translation>그리디: %1
빔 (K = %2): %3%4</translation>
    </message>
    <message>
        <source>  (differs from greedy)</source>
        <translation>  (그리디와 다름)</translation>
    </message>
    <message>
        <source>%1.  %2    log P %3, score %4%5</source>
        <translation>%1.  %2    log P %3, 점수 %4%5</translation>
    </message>
    <message>
        <source> (cut at the length limit)</source>
        <translation> (길이 제한에서 잘림)</translation>
    </message>
    <message>
        <source>Show this hypothesis in every panel</source>
        <translation>이 가설을 모든 패널에 표시</translation>
    </message>
</context>
<context>
    <name>cl::ui::CaptionPanel</name>
    <message>
        <source>A beam-search hypothesis chosen on the Beam tab, not the greedy caption (Back to greedy there returns to it)</source>
        <translation>그리디 캡션이 아니라 빔 탭에서 선택한 빔 서치 가설입니다(빔 탭의 &apos;그리디로 돌아가기&apos;로 그리디 캡션에 돌아갑니다)</translation>
    </message>
    <message>
        <source>Auto contrast (each map to its peak)</source>
        <translation>자동 대비(각 맵을 자체 최댓값에 맞춤)</translation>
    </message>
    <message>
        <source>On: the colours span the map&apos;s own min..max, so its peak is always bright. Off: the fixed range 0..1, so maps compare.</source>
        <translation>켜면: 색이 맵 자체의 최솟값..최댓값 범위에 걸치므로 최댓값이 항상 밝게 보입니다. 끄면: 고정 범위 0..1을 사용하므로 맵끼리 비교할 수 있습니다.</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>어텐션 가중치</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>레이어</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>헤드</translation>
    </message>
    <message>
        <source>Opacity</source>
        <translation>불투명도</translation>
    </message>
    <message>
        <source>Hover or click a word to see where it looked in the image:</source>
        <translation>단어 위에 마우스를 올리거나 클릭하면 그 단어가 이미지의 어디를 보았는지 볼 수 있습니다:</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>레이어 %1</translation>
    </message>
    <message>
        <source>Average of all heads</source>
        <translation>모든 헤드의 평균</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>헤드 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Model&lt;/b&gt; %1&lt;br&gt;%2 layers × %3 heads, width %4, %5, vocabulary %6</source>
        <translation>&lt;b&gt;모델&lt;/b&gt; %1&lt;br&gt;레이어 %2개 × 헤드 %3개, 너비 %4, %5, 어휘 %6</translation>
    </message>
    <message>
        <source>image grid %1×%1</source>
        <translation>이미지 격자 %1×%1</translation>
    </message>
    <message>
        <source>one feature token</source>
        <translation>특징 토큰 1개</translation>
    </message>
    <message>
        <source>Input: %1. This model reads one feature vector (one memory token): its cross-attention is trivially 1.0, so there is no map to draw.</source>
        <translation>입력: %1. 이 모델은 특징 벡터 하나(메모리 토큰 1개)를 읽습니다. 크로스 어텐션이 자명하게 1.0이므로 그릴 맵이 없습니다.</translation>
    </message>
    <message>
        <source>Ablated model: %1 of %2 heads switched off (Heads tab)</source>
        <translation>헤드 제거 모델: 헤드 %2개 중 %1개 꺼짐 (헤드 탭)</translation>
    </message>
    <message>
        <source>“%1” · %2</source>
        <translation>“%1” · %2</translation>
    </message>
    <message>
        <source>attention weight (scaled to this map)</source>
        <translation>어텐션 가중치 (이 맵에 맞춰 조정)</translation>
    </message>
    <message>
        <source>attention weight (fixed 0..1)</source>
        <translation>어텐션 가중치 (고정 0..1)</translation>
    </message>
</context>
<context>
    <name>cl::ui::CircuitsPanel</name>
    <message>
        <source>its colour</source>
        <translation>객체의 색</translation>
    </message>
    <message>
        <source>its shape</source>
        <translation>객체의 모양</translation>
    </message>
    <message>
        <source>its size</source>
        <translation>객체의 크기</translation>
    </message>
    <message>
        <source>its position (relation flips)</source>
        <translation>객체의 위치 (관계가 뒤바뀜)</translation>
    </message>
    <message>
        <source>remove it</source>
        <translation>객체 제거</translation>
    </message>
    <message>
        <source>What does the model &lt;i&gt;use&lt;/i&gt;? The clean image is the one on screen; the corrupted one differs in one known thing. Each site (an image cell, a head, a layer&apos;s stream) is copied from one run into the other, and the figure says how much of the clean word&apos;s lead over the corrupted word comes back: 1 all of it, 0 none.</source>
        <translation>모델은 무엇을 &lt;i&gt;사용&lt;/i&gt;할까요? 원본 이미지는 화면에 있는 이미지이고, 변형된 이미지는 알려진 한 가지만 다릅니다. 각 지점(이미지 셀, 헤드, 레이어의 스트림)을 한 실행에서 다른 실행으로 복사하며, 수치는 원본 단어가 변형된 쪽 단어보다 앞서던 차이가 얼마나 돌아오는지를 나타냅니다. 1은 전부, 0은 전혀 돌아오지 않음을 뜻합니다.</translation>
    </message>
    <message>
        <source>Pair</source>
        <translation>쌍</translation>
    </message>
    <message>
        <source>&amp;Make pair</source>
        <translation>쌍 만들기(&amp;M)</translation>
    </message>
    <message>
        <source>Draw the scene on screen again with that one change: the corrupted image</source>
        <translation>화면의 장면을 그 한 가지만 바꿔 다시 그립니다: 변형된 이미지</translation>
    </message>
    <message>
        <source>Open corrupted image…</source>
        <translation>변형된 이미지 열기…</translation>
    </message>
    <message>
        <source>Any image of the clean image&apos;s size</source>
        <translation>원본 이미지와 크기가 같은 아무 이미지</translation>
    </message>
    <message>
        <source>The input position whose prediction is measured: the logit of the clean run&apos;s word minus the corrupted run&apos;s</source>
        <translation>예측을 측정할 입력 위치: 원본 실행의 단어 로짓에서 변형된 실행의 단어 로짓을 뺀 값</translation>
    </message>
    <message>
        <source>Noising (corrupted into the clean run)</source>
        <translation>노이징 (변형된 활성을 원본 실행에 넣기)</translation>
    </message>
    <message>
        <source>Off: denoising, clean activations into the corrupted run (what a site is enough for). On: corrupted into clean (what it is needed for).</source>
        <translation>끄면: 디노이징, 원본 활성을 변형된 실행에 넣습니다(지점이 무엇에 충분한지). 켜면: 변형된 활성을 원본 실행에 넣습니다(지점이 무엇에 필요한지).</translation>
    </message>
    <message>
        <source>&amp;Run patching</source>
        <translation>패칭 실행(&amp;R)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Corrupted image</source>
        <translation>변형된 이미지</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.bmp)</source>
        <translation>이미지 (*.png *.jpg *.jpeg *.bmp)</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>객체</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>변경</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>측정</translation>
    </message>
    <message>
        <source>clean</source>
        <translation>원본</translation>
    </message>
    <message>
        <source>corrupted: none yet</source>
        <translation>변형: 아직 없음</translation>
    </message>
    <message>
        <source>object %1: %2</source>
        <translation>객체 %1: %2</translation>
    </message>
    <message>
        <source>(no scene: open a corrupted image)</source>
        <translation>(장면 없음: 변형된 이미지를 여세요)</translation>
    </message>
    <message>
        <source>where the two captions part</source>
        <translation>두 캡션이 갈라지는 위치</translation>
    </message>
    <message>
        <source>position %1: %2 → %3</source>
        <translation>위치 %1: %2 → %3</translation>
    </message>
    <message>
        <source>No scene on screen to change: open the Scene editor or a Random Scene, or open a corrupted image.</source>
        <translation>화면에 바꿀 장면이 없습니다. 장면 편집기나 무작위 장면을 열거나, 변형된 이미지를 여세요.</translation>
    </message>
    <message>
        <source>corrupted: none (that change cannot be made)</source>
        <translation>변형: 없음 (그 변경은 할 수 없음)</translation>
    </message>
    <message>
        <source>That change cannot be made here (the object would leave the canvas or touch another, or the scene has one object).</source>
        <translation>여기서는 그 변경을 할 수 없습니다(객체가 캔버스를 벗어나거나 다른 객체에 닿게 되거나, 장면에 객체가 하나뿐입니다).</translation>
    </message>
    <message>
        <source>corrupted: object %1, %2</source>
        <translation>변형: 객체 %1, %2</translation>
    </message>
    <message>
        <source>The corrupted image must have the clean image&apos;s size (%1&#xa0;×&#xa0;%2); %3 is %4&#xa0;×&#xa0;%5.</source>
        <translation>변형된 이미지는 원본 이미지와 크기(%1 × %2)가 같아야 합니다. %3은(는) %4 × %5입니다.</translation>
    </message>
    <message>
        <source>corrupted: %1</source>
        <translation>변형: %1</translation>
    </message>
    <message>
        <source>Pair ready: press Run patching.</source>
        <translation>쌍 준비 완료: 패칭 실행을 누르세요.</translation>
    </message>
    <message>
        <source>Patching every site…</source>
        <translation>모든 지점을 패칭하는 중…</translation>
    </message>
    <message>
        <source>Cancelled: the figures shown are the last run&apos;s.</source>
        <translation>취소됨: 표시된 수치는 마지막 실행의 결과입니다.</translation>
    </message>
    <message>
        <source>Patching failed: %1</source>
        <translation>패칭 실패: %1</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>%1을(를) 쓸 수 없습니다</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>%1을(를) 저장했습니다</translation>
    </message>
    <message>
        <source>Activation patching (each site run)</source>
        <translation>활성 패칭 (지점마다 실행)</translation>
    </message>
    <message>
        <source>Attribution patching (one backward pass: an estimate)</source>
        <translation>기여도 패칭 (역전파 한 번: 추정치)</translation>
    </message>
    <message>
        <source>The estimate is a gradient times the difference of the activations: cheap, and right where the model is near linear. The correlation with the real figures is in the summary.</source>
        <translation>추정값은 그래디언트에 활성값의 차이를 곱한 것입니다. 계산 비용이 적고, 모델이 선형에 가까운 곳에서는 정확합니다. 실제 수치와의 상관관계는 요약에 나와 있습니다.</translation>
    </message>
    <message>
        <source>input position</source>
        <translation>입력 위치</translation>
    </message>
    <message>
        <source>head</source>
        <translation>헤드</translation>
    </message>
    <message>
        <source>restored</source>
        <translation>복원됨</translation>
    </message>
    <message>
        <source>stream</source>
        <translation>스트림</translation>
    </message>
    <message>
        <source>%1 at position %2 (%3): restores %4 (estimate %5)</source>
        <translation>위치 %2(%3)의 %1: %4 복원 (추정값 %5)</translation>
    </message>
    <message>
        <source>%1: %2 of the logit %3</source>
        <translation>%1: 로짓 %3 중 %2</translation>
    </message>
    <message>
        <source>Export sites as CSV…</source>
        <translation>지점을 CSV로 내보내기…</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>표시</translation>
    </message>
    <message>
        <source>&lt;b&gt;Logit lens&lt;/b&gt;: each layer&apos;s stream read through the output layer, its top word (click a row for its logit attribution)</source>
        <translation>&lt;b&gt;로짓 렌즈&lt;/b&gt;: 각 레이어의 스트림을 출력 레이어로 읽은 결과와 그 최상위 단어 (행을 클릭하면 해당 로짓 기여도를 볼 수 있습니다)</translation>
    </message>
    <message>
        <source>image cell row %1, column %2: restores %3 (estimate %4)</source>
        <translation>이미지 셀 %1행 %2열: %3 복원 (추정값 %4)</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>완료.</translation>
    </message>
    <message>
        <source>Clean: &lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Corrupted: &lt;b&gt;%2&lt;/b&gt;&lt;br&gt;Measured at position %3: logit(&lt;b&gt;%4&lt;/b&gt;) − logit(&lt;b&gt;%5&lt;/b&gt;) is %6 in the clean run, %7 in the corrupted one (%8). Attribution patching&apos;s estimate correlates with the real figures at r = %9.</source>
        <translation>원본: &lt;b&gt;%1&lt;/b&gt;&lt;br&gt;변형된 이미지: &lt;b&gt;%2&lt;/b&gt;&lt;br&gt;위치 %3에서 측정: logit(&lt;b&gt;%4&lt;/b&gt;) − logit(&lt;b&gt;%5&lt;/b&gt;)은(는) 원본 실행에서 %6, 변형된 실행에서 %7입니다(%8). 기여도 패칭(attribution patching)의 추정값과 실제 수치의 상관계수는 r = %9입니다.</translation>
    </message>
    <message>
        <source>noising: corrupted into clean</source>
        <translation>노이징: 변형된 실행 → 원본 실행</translation>
    </message>
    <message>
        <source>denoising: clean into corrupted</source>
        <translation>디노이징: 원본 실행 → 변형된 실행</translation>
    </message>
    <message>
        <source>image cells</source>
        <translation>이미지 셀</translation>
    </message>
    <message>
        <source>Self-attention heads (estimate)</source>
        <translation>셀프 어텐션 헤드 (추정)</translation>
    </message>
    <message>
        <source>Self-attention heads</source>
        <translation>셀프 어텐션 헤드</translation>
    </message>
    <message>
        <source>Cross-attention heads (estimate)</source>
        <translation>크로스 어텐션 헤드 (추정)</translation>
    </message>
    <message>
        <source>Cross-attention heads</source>
        <translation>크로스 어텐션 헤드</translation>
    </message>
    <message>
        <source>Layers × positions (estimate)</source>
        <translation>레이어 × 위치 (추정)</translation>
    </message>
    <message>
        <source>Layers × positions</source>
        <translation>레이어 × 위치</translation>
    </message>
    <message>
        <source>image cells, estimated: red restores, blue works against it (peak %1)</source>
        <translation>이미지 셀, 추정: 빨간색은 복원, 파란색은 반대로 작용 (최대 %1)</translation>
    </message>
    <message>
        <source>image cells patched one at a time: red restores, blue works against it (peak %1)</source>
        <translation>이미지 셀을 하나씩 패칭: 빨간색은 복원, 파란색은 반대로 작용 (최대 %1)</translation>
    </message>
    <message>
        <source>one memory token: restores %1</source>
        <translation>메모리 토큰 1개: %1 복원</translation>
    </message>
    <message>
        <source>the word&apos;s attention</source>
        <translation>단어의 어텐션</translation>
    </message>
    <message>
        <source>where “%1” looked (L%2 avg)</source>
        <translation>“%1”이(가) 본 곳 (L%2 평균)</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>임베딩</translation>
    </message>
    <message>
        <source>after L%1</source>
        <translation>L%1 이후</translation>
    </message>
    <message>
        <source>position %1, read %2: %3</source>
        <translation>위치 %1, %2에서 읽음: %3</translation>
    </message>
    <message>
        <source>direct logit attribution to “%1” at position %2 (sum %3)</source>
        <translation>위치 %2의 “%1”에 대한 직접 로짓 기여도(DLA) (합계 %3)</translation>
    </message>
</context>
<context>
    <name>cl::ui::ComparePanel</name>
    <message>
        <source>Checkpoints to compare (two or more):</source>
        <translation>비교할 체크포인트 (2개 이상):</translation>
    </message>
    <message>
        <source>Model &amp;A:</source>
        <translation>모델 A(&amp;A):</translation>
    </message>
    <message>
        <source>Model &amp;B:</source>
        <translation>모델 B(&amp;B):</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>어텐션:</translation>
    </message>
    <message>
        <source>Head of A:</source>
        <translation>A의 헤드:</translation>
    </message>
    <message>
        <source>Head of B:</source>
        <translation>B의 헤드:</translation>
    </message>
    <message>
        <source>Word of A:</source>
        <translation>A의 단어:</translation>
    </message>
    <message>
        <source>The first checkpoint is model A unless you pick another below.</source>
        <translation>아래에서 다른 체크포인트를 선택하지 않으면 첫 번째 체크포인트가 모델 A가 됩니다.</translation>
    </message>
    <message>
        <source>Add checkpoint…</source>
        <translation>체크포인트 추가…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>제거</translation>
    </message>
    <message>
        <source>Cross (image)</source>
        <translation>크로스 (이미지)</translation>
    </message>
    <message>
        <source>Self (words)</source>
        <translation>셀프 (단어)</translation>
    </message>
    <message>
        <source>Feature models have one memory token: their cross-attention is always 1.0, so self-attention is compared by default.</source>
        <translation>특징 모델은 메모리 토큰이 하나뿐이어서 크로스 어텐션이 항상 1.0이므로, 기본적으로 셀프 어텐션을 비교합니다.</translation>
    </message>
    <message>
        <source>Red: model A attends more here; blue: model B does. The title gives the Jensen-Shannon divergence of the two rows, in bits (0 = identical, 1 = disjoint).</source>
        <translation>빨간색: 모델 A가 이곳에 더 많이 어텐션합니다. 파란색: 모델 B가 더 많이 어텐션합니다. 제목에는 두 행의 Jensen-Shannon 발산이 비트 단위로 표시됩니다 (0 = 동일, 1 = 전혀 겹치지 않음).</translation>
    </message>
    <message>
        <source>key (input token)</source>
        <translation>키 (입력 토큰)</translation>
    </message>
    <message>
        <source>model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>JSD (bits)</source>
        <translation>JSD (비트)</translation>
    </message>
    <message>
        <source>head of B</source>
        <translation>B의 헤드</translation>
    </message>
    <message>
        <source>head of A</source>
        <translation>A의 헤드</translation>
    </message>
    <message>
        <source>&lt;i&gt;(empty caption)&lt;/i&gt;</source>
        <translation>&lt;i&gt;(빈 캡션)&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Add two or more checkpoints (the first one may be the open model) to caption the image with each and compare them.</source>
        <translation>체크포인트를 2개 이상 추가하여(첫 번째는 현재 열린 모델이어도 됩니다) 각 체크포인트로 이미지에 캡션을 생성하고 비교하십시오.</translation>
    </message>
    <message>
        <source>%1&apos;s words</source>
        <translation>%1의 단어</translation>
    </message>
    <message>
        <source>P %1</source>
        <translation>P %1</translation>
    </message>
    <message>
        <source>JSD of head pairs
(click a cell)</source>
        <translation>헤드 쌍의 JSD
(셀을 클릭)</translation>
    </message>
    <message>
        <source>JSD %1</source>
        <translation>JSD %1</translation>
    </message>
    <message>
        <source>%1 − %2 · %3</source>
        <translation>%1 − %2 · %3</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>메모리</translation>
    </message>
    <message>
        <source>Word %1 &quot;%2&quot;: %3</source>
        <translation>단어 %1 &quot;%2&quot;: %3</translation>
    </message>
    <message>
        <source>Add a second checkpoint to compare.</source>
        <translation>비교할 두 번째 체크포인트를 추가하십시오.</translation>
    </message>
    <message>
        <source>A has %1 layers × %2 heads, B %3 × %4: heads have no one-to-one match, so every pair is compared.</source>
        <translation>A는 레이어 %1개 × 헤드 %2개, B는 %3 × %4입니다. 헤드가 일대일로 대응하지 않으므로 모든 쌍을 비교합니다.</translation>
    </message>
    <message>
        <source>Attention: %1.</source>
        <translation>어텐션: %1.</translation>
    </message>
    <message>
        <source>%1 of A&apos;s words are not in B&apos;s vocabulary: B reads them as &lt;UNK&gt;, their probabilities are not shown.</source>
        <translation>A의 단어 중 %1개가 B의 어휘에 없습니다. B는 이 단어들을 &lt;UNK&gt;로 읽으며, 해당 확률은 표시되지 않습니다.</translation>
    </message>
    <message>
        <source>B scores only the first %1 words of A&apos;s caption (its maximum length).</source>
        <translation>B는 A 캡션의 처음 %1개 단어만 점수를 매깁니다 (B의 최대 길이).</translation>
    </message>
</context>
<context>
    <name>cl::ui::CourseBrowser</name>
    <message>
        <source>%1: idx_to_word must list words</source>
        <translation>%1: idx_to_word는 단어 목록이어야 합니다</translation>
    </message>
    <message>
        <source>%1 has no idx_to_word list</source>
        <translation>%1에 idx_to_word 목록이 없습니다</translation>
    </message>
    <message>
        <source>Course data</source>
        <translation>강의 데이터</translation>
    </message>
    <message>
        <source>Search the captions…</source>
        <translation>캡션 검색…</translation>
    </message>
    <message>
        <source>image</source>
        <translation>이미지</translation>
    </message>
    <message>
        <source>ground truth</source>
        <translation>정답</translation>
    </message>
    <message>
        <source>model&apos;s caption</source>
        <translation>모델의 캡션</translation>
    </message>
    <message>
        <source>BLEU-1</source>
        <translation>BLEU-1</translation>
    </message>
    <message>
        <source>Split:</source>
        <translation>분할:</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 읽는 중…</translation>
    </message>
    <message>
        <source>Cannot read the course data: %1</source>
        <translation>강의 데이터를 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>%1 · %2 images in %3</source>
        <translation>%1 · %3의 이미지 %2개</translation>
    </message>
    <message>
        <source>Choose an image in the list: its feature row is captioned in the main window, its photo fetched from its URL.</source>
        <translation>목록에서 이미지를 선택하십시오. 해당 특징 행은 메인 창에서 캡션이 생성되고, 사진은 URL에서 가져옵니다.</translation>
    </message>
    <message>
        <source>  (+%1 more)</source>
        <translation>  (외 %1개)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Ground truth&lt;/b&gt; (%1):&lt;br&gt;%2</source>
        <translation>&lt;b&gt;정답&lt;/b&gt; (%1개):&lt;br&gt;%2</translation>
    </message>
    <message>
        <source>Captioning…</source>
        <translation>캡션 생성 중…</translation>
    </message>
    <message>
        <source>No photo: %1 could not be fetched before</source>
        <translation>사진 없음: 이전에 %1을(를) 가져오지 못했습니다</translation>
    </message>
    <message>
        <source>Fetching %1…</source>
        <translation>%1 가져오는 중…</translation>
    </message>
    <message>
        <source>%1 image %2</source>
        <translation>%1 이미지 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Model:&lt;/b&gt; %1&lt;br&gt;&lt;b&gt;BLEU-1&lt;/b&gt; against all %2 references: %3</source>
        <translation>&lt;b&gt;모델:&lt;/b&gt; %1&lt;br&gt;참조 캡션 %2개 전체에 대한 &lt;b&gt;BLEU-1&lt;/b&gt;: %3</translation>
    </message>
    <message>
        <source>No photo: %1
%2</source>
        <translation>사진 없음: %1
%2</translation>
    </message>
</context>
<context>
    <name>cl::ui::CurveStrip</name>
    <message>
        <source>Red: the word&apos;s probability as the most salient pixels are covered (deletion; falls fast when the map is faithful). Blue: as they are restored into a blurred copy (insertion; rises fast when faithful).</source>
        <translation>빨간색: 가장 두드러진 픽셀을 가려 나갈 때의 단어 확률입니다 (삭제, 맵이 충실하면 빠르게 떨어집니다). 파란색: 흐리게 만든 사본에 그 픽셀을 복원해 나갈 때의 확률입니다 (삽입, 충실하면 빠르게 오릅니다).</translation>
    </message>
</context>
<context>
    <name>cl::ui::DecodePanel</name>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message>
        <source>Decoding panel: %1</source>
        <translation>디코딩 패널: %1</translation>
    </message>
    <message>
        <source>|◀ First</source>
        <translation>|◀ 처음</translation>
    </message>
    <message>
        <source>First step</source>
        <translation>첫 스텝</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 이전</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>이전 스텝</translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation>▶ 재생</translation>
    </message>
    <message>
        <source>Play / pause</source>
        <translation>재생 / 일시 정지</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>다음 ▶</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>다음 스텝</translation>
    </message>
    <message>
        <source>Last ▶|</source>
        <translation>마지막 ▶|</translation>
    </message>
    <message>
        <source>Last step</source>
        <translation>마지막 스텝</translation>
    </message>
    <message>
        <source>Playback speed</source>
        <translation>재생 속도</translation>
    </message>
    <message>
        <source>  Speed</source>
        <translation>  속도</translation>
    </message>
    <message>
        <source>  Temperature</source>
        <translation>  온도</translation>
    </message>
    <message>
        <source>Back to original</source>
        <translation>원래대로</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>확률</translation>
    </message>
    <message>
        <source>Next-word candidates (click one to force it)</source>
        <translation>다음 단어 후보 (클릭하면 해당 단어로 강제합니다)</translation>
    </message>
    <message>
        <source>layer · head</source>
        <translation>레이어 · 헤드</translation>
    </message>
    <message>
        <source>earlier words (keys)</source>
        <translation>이전 단어 (키)</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 일시 정지</translation>
    </message>
    <message>
        <source>Forcing a candidate at step %1…</source>
        <translation>스텝 %1에서 후보를 강제하는 중…</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#b35900&apos;&gt;[%1]&lt;/span&gt; </source>
        <translation>&lt;span style=&apos;color:#b35900&apos;&gt;[%1]&lt;/span&gt; </translation>
    </message>
    <message>
        <source>1 head off</source>
        <translation>헤드 1개 끔</translation>
    </message>
    <message>
        <source>%1 heads off</source>
        <translation>헤드 %1개 끔</translation>
    </message>
    <message>
        <source>Step %1 of %2: </source>
        <translation>스텝 %1/%2: </translation>
    </message>
    <message>
        <source>&lt;b&gt;Original:&lt;/b&gt; %1&lt;br&gt;&lt;b&gt;Forced at step %2:&lt;/b&gt; %3</source>
        <translation>&lt;b&gt;원래:&lt;/b&gt; %1&lt;br&gt;&lt;b&gt;스텝 %2에서 강제:&lt;/b&gt; %3</translation>
    </message>
    <message>
        <source>Self-attention of the query at step %1, every layer and head</source>
        <translation>스텝 %1 쿼리의 셀프 어텐션 (모든 레이어와 헤드)</translation>
    </message>
    <message>
        <source>cross-attention, %1</source>
        <translation>크로스 어텐션, %1</translation>
    </message>
    <message>
        <source>one memory token: cross-attention is 1.0</source>
        <translation>메모리 토큰 1개: 크로스 어텐션은 1.0입니다</translation>
    </message>
</context>
<context>
    <name>cl::ui::ExplainPanel</name>
    <message>
        <source>The word to explain (the shared selection: every panel follows)</source>
        <translation>설명할 단어 (공유 선택: 모든 패널이 따라갑니다)</translation>
    </message>
    <message>
        <source>The cross-attention map&apos;s layer</source>
        <translation>크로스 어텐션 맵의 레이어</translation>
    </message>
    <message>
        <source>The cross-attention map&apos;s head</source>
        <translation>크로스 어텐션 맵의 헤드</translation>
    </message>
    <message>
        <source>Deletion/insertion &amp;curves</source>
        <translation>삭제/삽입 곡선(&amp;C)</translation>
    </message>
    <message>
        <source>Score each map by covering and restoring its most salient pixels (about a third of the time)</source>
        <translation>각 맵에서 가장 두드러진 픽셀을 가리고 복원하여 점수를 매깁니다 (소요 시간의 약 3분의 1)</translation>
    </message>
    <message>
        <source>Explain a&amp;gain</source>
        <translation>다시 설명(&amp;G)</translation>
    </message>
    <message>
        <source>Q·&amp;K…</source>
        <translation>Q·K(&amp;K)…</translation>
    </message>
    <message>
        <source>How this head&apos;s weights for this word come out of the query and the keys, number by number</source>
        <translation>이 헤드가 이 단어에 주는 가중치가 쿼리와 키로부터 어떻게 계산되는지 숫자 하나하나 보여 줍니다</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>단어</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>레이어</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>헤드</translation>
    </message>
    <message>
        <source>Open an image to explain its caption&apos;s words.</source>
        <translation>캡션의 단어를 설명하려면 이미지를 여십시오.</translation>
    </message>
    <message>
        <source>Each map is the evidence for the word&apos;s probability given the words before it. Rollout: R starts at 0; each layer R ← ½(I + A&lt;sub&gt;self&lt;/sub&gt;) R, then R ← ½(R + A&lt;sub&gt;cross&lt;/sub&gt;), heads averaged. IG: Integrated Gradients (gap: how far its sum is from the change it explains, as a share of that change or of 0.1 nats when the word barely changes). Curves and their areas: &lt;span style=&apos;color:#d73c32&apos;&gt;deletion&lt;/span&gt; (lower: more faithful), &lt;span style=&apos;color:#286ed2&apos;&gt;insertion&lt;/span&gt; (higher: more faithful).</source>
        <translation>각 맵은 앞선 단어들이 주어졌을 때 해당 단어의 확률에 대한 근거입니다. 롤아웃: R은 0에서 시작하며, 각 레이어에서 R ← ½(I + A&lt;sub&gt;self&lt;/sub&gt;) R, 이어서 R ← ½(R + A&lt;sub&gt;cross&lt;/sub&gt;)를 적용합니다(헤드는 평균). IG: 통합 그래디언트(Integrated Gradients) (격차(gap): 그 합이 설명하는 변화량과 얼마나 차이 나는지를 그 변화량에 대한 비율로, 단어가 거의 변하지 않으면 0.1 나트에 대한 비율로 나타냅니다). 곡선과 그 면적: &lt;span style=&apos;color:#d73c32&apos;&gt;삭제&lt;/span&gt; (낮을수록 더 충실), &lt;span style=&apos;color:#286ed2&apos;&gt;삽입&lt;/span&gt; (높을수록 더 충실).</translation>
    </message>
    <message>
        <source>Explanations need an image model: this model reads one feature vector, with no place in an image.</source>
        <translation>설명에는 이미지 모델이 필요합니다. 이 모델은 이미지 내 위치가 없는 특징 벡터 하나를 읽습니다.</translation>
    </message>
    <message>
        <source>Explaining “%1”…</source>
        <translation>“%1” 설명 중…</translation>
    </message>
    <message>
        <source>
deletion area %1, insertion area %2</source>
        <translation>
삭제 면적 %1, 삽입 면적 %2</translation>
    </message>
    <message>
        <source>“%1” (word %2) has probability %3 given the words before it. %4 maps in %5 ms.</source>
        <translation>앞선 단어들이 주어졌을 때 “%1”(단어 %2)의 확률은 %3입니다. 맵 %4개, %5 ms.</translation>
    </message>
    <message>
        <source>Could not explain: %1</source>
        <translation>설명할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Cross-attention (layer, head)</source>
        <translation>크로스 어텐션 (레이어, 헤드)</translation>
    </message>
    <message>
        <source>Cross-attention (head average)</source>
        <translation>크로스 어텐션 (헤드 평균)</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>어텐션 롤아웃</translation>
    </message>
    <message>
        <source>Gradient × input</source>
        <translation>그래디언트 × 입력</translation>
    </message>
    <message>
        <source>Integrated Gradients (black)</source>
        <translation>통합 그래디언트 (검정 기준)</translation>
    </message>
    <message>
        <source>Integrated Gradients (blurred)</source>
        <translation>통합 그래디언트 (흐린 기준)</translation>
    </message>
    <message>
        <source>Grad-CAM</source>
        <translation>Grad-CAM</translation>
    </message>
    <message>
        <source>Occlusion</source>
        <translation>가림(Occlusion)</translation>
    </message>
</context>
<context>
    <name>cl::ui::HeadCostChart</name>
    <message>
        <source>drop in log p (nats)</source>
        <translation>log p 감소량 (나트)</translation>
    </message>
    <message>
        <source>Each head&apos;s cost appears here once a caption is on screen</source>
        <translation>캡션이 화면에 표시되면 여기에 각 헤드의 비용이 나타납니다</translation>
    </message>
    <message>
        <source>Blue: this input · orange: the caption changes without the head</source>
        <translation>파란색: 이 입력 · 주황색: 해당 헤드 없이 캡션이 바뀜</translation>
    </message>
    <message>
        <source> · grey: mean over %1 held-out scenes</source>
        <translation> · 회색: 학습에 쓰지 않은 장면 %1개의 평균</translation>
    </message>
    <message>
        <source> (most important first)</source>
        <translation> (중요한 순)</translation>
    </message>
</context>
<context>
    <name>cl::ui::HeadsPanel</name>
    <message>
        <source>Heads (untick to switch a head off: its attention output becomes zero)</source>
        <translation>헤드 (체크를 해제하면 헤드가 꺼지며, 그 어텐션 출력이 0이 됩니다)</translation>
    </message>
    <message>
        <source>Reset: every head on</source>
        <translation>초기화: 모든 헤드 켜기</translation>
    </message>
    <message>
        <source>&amp;Sort by importance</source>
        <translation>중요도순 정렬(&amp;S)</translation>
    </message>
    <message>
        <source>Order the chart&apos;s rows by what switching the head off costs this input, most important first</source>
        <translation>헤드를 껐을 때 이 입력에서 드는 비용을 기준으로 차트의 행을 중요한 순으로 정렬합니다</translation>
    </message>
    <message>
        <source>&lt;b&gt;self-attention&lt;/b&gt;</source>
        <translation>&lt;b&gt;셀프 어텐션&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;cross-attention&lt;/b&gt;</source>
        <translation>&lt;b&gt;크로스 어텐션&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Layer %1</source>
        <translation>레이어 %1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>Drop in the caption&apos;s log-probability (nats) when only this head is switched off</source>
        <translation>이 헤드만 껐을 때 캡션의 로그 확률이 떨어지는 양 (나트)</translation>
    </message>
    <message>
        <source>Every panel shows the model as ablated here; the Decoding panel shows the new probabilities, the Attention panel how the remaining heads react.</source>
        <translation>모든 패널은 여기서 헤드를 끈 상태의 모델을 보여 줍니다. 디코딩 패널에는 새 확률이, 어텐션 패널에는 남은 헤드의 반응이 표시됩니다.</translation>
    </message>
    <message>
        <source>Switching each of the %1 heads off alone, as one batch…</source>
        <translation>헤드 %1개를 하나씩 끄는 중 (한 배치로)…</translation>
    </message>
    <message>
        <source>L%1 %2 H%3</source>
        <translation>L%1 %2 H%3</translation>
    </message>
    <message>
        <source>cross</source>
        <translation>크로스</translation>
    </message>
    <message>
        <source>self</source>
        <translation>셀프</translation>
    </message>
    <message>
        <source>&lt;b&gt;What each head costs this caption&lt;/b&gt; (log-probability %1 with every head on): switching off %2 alone costs the most, %3 nats; %4 of %5 heads change the caption when switched off alone%6.</source>
        <translation>&lt;b&gt;이 캡션에 대한 각 헤드의 비용&lt;/b&gt; (모든 헤드를 켰을 때 로그 확률 %1): %2 하나만 끌 때 비용이 가장 크며(%3 나트), 헤드 %5개 중 %4개는 하나만 끌 때 캡션이 바뀝니다%6.</translation>
    </message>
    <message>
        <source> (held-out figures: &lt;tt&gt;captionlens-cli eval --head-importance --store&lt;/tt&gt;)</source>
        <translation> (홀드아웃 데이터 기준 수치: &lt;tt&gt;captionlens-cli eval --head-importance --store&lt;/tt&gt;)</translation>
    </message>
    <message>
        <source>Could not score the heads: %1</source>
        <translation>헤드 점수를 매길 수 없습니다: %1</translation>
    </message>
    <message>
        <source>&lt;i&gt;captioning…&lt;/i&gt;</source>
        <translation>&lt;i&gt;캡션 생성 중…&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Caption&lt;/b&gt; (every head on): %1</source>
        <translation>&lt;b&gt;캡션&lt;/b&gt; (모든 헤드 켬): %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;With %1 head(s) off:&lt;/b&gt; %2&lt;br&gt;&lt;b&gt;Every head on:&lt;/b&gt; %3</source>
        <translation>&lt;b&gt;헤드 %1개를 끈 경우:&lt;/b&gt; %2&lt;br&gt;&lt;b&gt;모든 헤드를 켠 경우:&lt;/b&gt; %3</translation>
    </message>
</context>
<context>
    <name>cl::ui::HeatmapPlot</name>
    <message>
        <source>weight</source>
        <translation>가중치</translation>
    </message>
    <message>
        <source>key word</source>
        <translation>키 단어</translation>
    </message>
    <message>
        <source>query word</source>
        <translation>쿼리 단어</translation>
    </message>
    <message>
        <source>%1 → %2: masked (a word cannot see the future)</source>
        <translation>%1 → %2: 마스크됨 (단어는 미래를 볼 수 없습니다)</translation>
    </message>
    <message>
        <source>query “%1” → key “%2”: %3</source>
        <translation>쿼리 “%1” → 키 “%2”: %3</translation>
    </message>
</context>
<context>
    <name>cl::ui::ImageFetcher</name>
    <message>
        <source>not a web address</source>
        <translation>웹 주소가 아닙니다</translation>
    </message>
    <message>
        <source>larger than 32 MB</source>
        <translation>32 MB보다 큽니다</translation>
    </message>
    <message>
        <source>answering slower than %1 KB/s</source>
        <translation>응답 속도가 %1 KB/s보다 느립니다</translation>
    </message>
    <message>
        <source>no complete answer within %1 s</source>
        <translation>%1초 안에 완전한 응답이 없습니다</translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation>%1초 안에 응답이 없습니다</translation>
    </message>
    <message>
        <source>not found (HTTP %1)</source>
        <translation>찾을 수 없습니다 (HTTP %1)</translation>
    </message>
    <message>
        <source>not an image (%1)</source>
        <translation>이미지가 아닙니다 (%1)</translation>
    </message>
</context>
<context>
    <name>cl::ui::MainWindow</name>
    <message>
        <source>CaptionLens</source>
        <translation>CaptionLens</translation>
    </message>
    <message>
        <source>&amp;Caption</source>
        <translation>캡션(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Attention</source>
        <translation>어텐션(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Positions</source>
        <translation>위치(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Decoding</source>
        <translation>디코딩(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Heads</source>
        <translation>헤드(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Beam</source>
        <translation>빔(&amp;B)</translation>
    </message>
    <message>
        <source>E&amp;xplain</source>
        <translation>설명(&amp;X)</translation>
    </message>
    <message>
        <source>%1, row %2</source>
        <translation>%1, %2행</translation>
    </message>
    <message>
        <source>Cannot read the course data: %1</source>
        <translation>강의 데이터를 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>the model on screen captions images; open a course (feature) checkpoint to caption the course&apos;s images</source>
        <translation>화면의 모델은 이미지에 캡션을 생성하는 모델입니다. 강의의 이미지에 캡션을 생성하려면 강의(특징) 체크포인트를 여십시오</translation>
    </message>
    <message>
        <source> — 1 head off</source>
        <translation> — 헤드 1개 끔</translation>
    </message>
    <message>
        <source> — %1 heads off</source>
        <translation> — 헤드 %1개 끔</translation>
    </message>
    <message>
        <source> (a guess: out of the training world)</source>
        <translation> (추정: 학습 범위 밖)</translation>
    </message>
    <message>
        <source>CaptionLens — %1 — “%2”%3%4</source>
        <translation>CaptionLens — %1 — “%2”%3%4</translation>
    </message>
    <message>
        <source>⚠ %1 of %2 heads off</source>
        <translation>⚠ 헤드 %2개 중 %1개 끔</translation>
    </message>
    <message>
        <source>%1 · %2 L × %3 H · W %4 · %5 · V %6</source>
        <translation>%1 · %2 L × %3 H · W %4 · %5 · V %6</translation>
    </message>
    <message>
        <source>Nothing changed: the previous image, model and panels are kept.</source>
        <translation>변경된 것이 없습니다: 이전 이미지, 모델, 패널이 그대로 유지됩니다.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Image…</source>
        <translation>이미지 열기(&amp;I)…</translation>
    </message>
    <message>
        <source>Open image</source>
        <translation>이미지 열기</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.bmp *.gif *.ppm *.pgm *.webp);;All files (*)</source>
        <translation>이미지 (*.png *.jpg *.jpeg *.bmp *.gif *.ppm *.pgm *.webp);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Checkpoint…</source>
        <translation>체크포인트 열기(&amp;C)…</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>체크포인트 열기</translation>
    </message>
    <message>
        <source>Checkpoints (*.pt *.pth);;All files (*)</source>
        <translation>체크포인트 (*.pt *.pth);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Open Course &amp;Data…</source>
        <translation>강의 데이터 열기(&amp;D)…</translation>
    </message>
    <message>
        <source>Open the course&apos;s coco_captioning folder</source>
        <translation>강의의 coco_captioning 폴더 열기</translation>
    </message>
    <message>
        <source>Open &amp;Features (.npy, .h5)…</source>
        <translation>특징 열기 (.npy, .h5)(&amp;F)…</translation>
    </message>
    <message>
        <source>Open feature rows</source>
        <translation>특징 행 열기</translation>
    </message>
    <message>
        <source>Feature rows (*.npy *.h5 *.hdf5)</source>
        <translation>특징 행 (*.npy *.h5 *.hdf5)</translation>
    </message>
    <message>
        <source>Feature row</source>
        <translation>특징 행</translation>
    </message>
    <message>
        <source>Row to caption:</source>
        <translation>캡션을 생성할 행:</translation>
    </message>
    <message>
        <source>&amp;Random Scene</source>
        <translation>무작위 장면(&amp;R)</translation>
    </message>
    <message>
        <source>Recent Images</source>
        <translation>최근 이미지</translation>
    </message>
    <message>
        <source>Recent Checkpoints</source>
        <translation>최근 체크포인트</translation>
    </message>
    <message>
        <source>&amp;Export View (PNG or PDF)…</source>
        <translation>보기 내보내기 (PNG 또는 PDF)(&amp;E)…</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>보기 내보내기</translation>
    </message>
    <message>
        <source>PNG (*.png);;PDF (*.pdf)</source>
        <translation>PNG (*.png);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>%1을(를) 쓸 수 없습니다</translation>
    </message>
    <message>
        <source>Export &amp;Web Page…</source>
        <translation>웹 페이지 내보내기(&amp;W)…</translation>
    </message>
    <message>
        <source>Export web page</source>
        <translation>웹 페이지 내보내기</translation>
    </message>
    <message>
        <source>Web page (*.html)</source>
        <translation>웹 페이지 (*.html)</translation>
    </message>
    <message>
        <source>Export Selected Attention &amp;Matrix (CSV)…</source>
        <translation>선택한 어텐션 행렬 내보내기 (CSV)(&amp;M)…</translation>
    </message>
    <message>
        <source>Export attention</source>
        <translation>어텐션 내보내기</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>종료(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Caption Panel</source>
        <translation>캡션 패널(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Attention Panel</source>
        <translation>어텐션 패널(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Positional Encoding Panel</source>
        <translation>위치 인코딩 패널(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Decoding Panel</source>
        <translation>디코딩 패널(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Head Ablation Panel</source>
        <translation>헤드 끄기(제거) 패널(&amp;H)</translation>
    </message>
    <message>
        <source>C&amp;ompare Panel</source>
        <translation>비교 패널(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Timeline Panel</source>
        <translation>타임라인 패널(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Scene Editor</source>
        <translation>장면 편집기(&amp;S)</translation>
    </message>
    <message>
        <source>T&amp;raining Panel</source>
        <translation>학습 패널(&amp;R)</translation>
    </message>
    <message>
        <source>Circ&amp;uits Panel</source>
        <translation>회로 패널(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Presenter Mode</source>
        <translation>발표자 모드(&amp;P)</translation>
    </message>
    <message>
        <source>Large fonts and thick lines for a projector (F11); PageDown/PageUp step through the words</source>
        <translation>프로젝터용 큰 글꼴과 굵은 선을 사용합니다 (F11). PageDown/PageUp으로 단어를 하나씩 이동합니다</translation>
    </message>
    <message>
        <source>Next Word</source>
        <translation>다음 단어</translation>
    </message>
    <message>
        <source>Previous Word</source>
        <translation>이전 단어</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>Where the model runs; CUDA needs a LibTorch built with it. Changing it reloads the checkpoint.</source>
        <translation>모델이 실행되는 장치입니다. CUDA를 사용하려면 CUDA 지원으로 빌드된 LibTorch가 필요합니다. 변경하면 체크포인트를 다시 불러옵니다.</translation>
    </message>
    <message>
        <source>Longest caption, in tokens (also capped by the model&apos;s positional table)</source>
        <translation>토큰 단위의 최대 캡션 길이입니다 (모델의 위치 테이블 크기로도 제한됩니다)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>기본</translation>
    </message>
    <message>
        <source> Device </source>
        <translation> 장치 </translation>
    </message>
    <message>
        <source>  Max length </source>
        <translation>  최대 길이 </translation>
    </message>
    <message>
        <source>no model</source>
        <translation>모델 없음</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Cancelled; nothing changed.</source>
        <translation>취소했습니다. 변경된 것이 없습니다.</translation>
    </message>
    <message>
        <source>Heads are switched off (Heads tab): every caption and map is the ablated model&apos;s</source>
        <translation>헤드가 꺼져 있습니다 (헤드 탭): 모든 캡션과 맵은 헤드를 끈(제거한) 모델의 결과입니다</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(아직 없음)</translation>
    </message>
    <message>
        <source>Exported the %1 panel to %2</source>
        <translation>%1 패널을 %2(으)로 내보냈습니다</translation>
    </message>
    <message>
        <source>A web page shows an image&apos;s caption: open an image first</source>
        <translation>웹 페이지는 이미지의 캡션을 보여 줍니다: 먼저 이미지를 여십시오</translation>
    </message>
    <message>
        <source>Could not make the web page: %1</source>
        <translation>웹 페이지를 만들 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Exported the web page to %1</source>
        <translation>웹 페이지를 %1(으)로 내보냈습니다</translation>
    </message>
    <message>
        <source>Exported the attention matrix to %1</source>
        <translation>어텐션 행렬을 %1(으)로 내보냈습니다</translation>
    </message>
    <message>
        <source>Circ&amp;uits</source>
        <translation>회로(&amp;U)</translation>
    </message>
    <message>
        <source>Export patching</source>
        <translation>패칭 내보내기</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>키보드 단축키(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Quick Tour…</source>
        <translation>빠른 둘러보기(&amp;Q)…</translation>
    </message>
    <message>
        <source>&amp;About CaptionLens</source>
        <translation>CaptionLens 정보(&amp;A)</translation>
    </message>
    <message>
        <source>About CaptionLens</source>
        <translation>CaptionLens 정보</translation>
    </message>
    <message>
        <source>C&amp;ompare</source>
        <translation>비교(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>타임라인(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Scene</source>
        <translation>장면(&amp;S)</translation>
    </message>
    <message>
        <source>T&amp;rain</source>
        <translation>학습(&amp;R)</translation>
    </message>
    <message>
        <source>Add checkpoints to compare</source>
        <translation>비교할 체크포인트 추가</translation>
    </message>
    <message>
        <source>Checkpoints (*.pt *.pth)</source>
        <translation>체크포인트 (*.pt *.pth)</translation>
    </message>
    <message>
        <source>edited scene</source>
        <translation>편집한 장면</translation>
    </message>
    <message>
        <source>Open training run</source>
        <translation>학습 실행 열기</translation>
    </message>
    <message>
        <source>Open &amp;Training Run…</source>
        <translation>학습 실행 열기(&amp;T)…</translation>
    </message>
    <message>
        <source>Open &amp;Lesson…</source>
        <translation>레슨 열기(&amp;L)…</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>레슨 열기</translation>
    </message>
    <message>
        <source>Lessons (*.cllesson)</source>
        <translation>레슨 (*.cllesson)</translation>
    </message>
    <message>
        <source>&amp;Save Lesson…</source>
        <translation>레슨 저장(&amp;S)…</translation>
    </message>
    <message>
        <source>Save lesson</source>
        <translation>레슨 저장</translation>
    </message>
    <message>
        <source>%1 holds no checkpoints (*.pt); the timeline needs a folder of snapshots from one training run</source>
        <translation>%1에 체크포인트(*.pt)가 없습니다. 타임라인에는 한 학습 실행의 스냅샷이 담긴 폴더가 필요합니다</translation>
    </message>
    <message>
        <source>Lesson saved to %1</source>
        <translation>레슨을 %1에 저장했습니다</translation>
    </message>
    <message>
        <source>the lesson %1 needs %2, which is %3</source>
        <translation>레슨 %1에 %2이(가) 필요합니다 (%3)</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>the lesson %1 has no image, scene or features to show</source>
        <translation>레슨 %1에 표시할 이미지, 장면 또는 특징이 없습니다</translation>
    </message>
    <message>
        <source>Export &amp;Animation (GIF)…</source>
        <translation>애니메이션 내보내기 (GIF)(&amp;A)…</translation>
    </message>
    <message>
        <source>An animation shows an image&apos;s caption: open an image first</source>
        <translation>애니메이션은 이미지의 캡션을 보여 줍니다. 먼저 이미지를 여십시오</translation>
    </message>
    <message>
        <source>Choose the file the animation goes to</source>
        <translation>애니메이션을 저장할 파일을 고르십시오</translation>
    </message>
    <message>
        <source>Open a training run in the Timeline panel first</source>
        <translation>먼저 타임라인 패널에서 학습 실행을 여십시오</translation>
    </message>
    <message>
        <source>Exporting the animation…</source>
        <translation>애니메이션을 내보내는 중…</translation>
    </message>
    <message>
        <source>Could not export the animation: %1</source>
        <translation>애니메이션을 내보낼 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Exported the animation to %1 (%2 KB)</source>
        <translation>애니메이션을 %1(으)로 내보냈습니다 (%2 KB)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>The interface has no language “%1”</source>
        <translation>인터페이스에 “%1” 언어가 없습니다</translation>
    </message>
    <message>
        <source>No file was written; the window is as it was.</source>
        <translation>파일을 쓰지 않았습니다. 창은 그대로입니다.</translation>
    </message>
</context>
<context>
    <name>cl::ui::OpacitySlider</name>
    <message>
        <source>How strongly the attention map covers the image</source>
        <translation>어텐션 맵이 이미지를 얼마나 진하게 덮을지 정합니다</translation>
    </message>
    <message>
        <source>Opacity</source>
        <translation>불투명도</translation>
    </message>
</context>
<context>
    <name>cl::ui::PePanel</name>
    <message>
        <source>cosine</source>
        <translation>코사인</translation>
    </message>
    <message>
        <source>dot product</source>
        <translation>내적</translation>
    </message>
    <message>
        <source>Dimensions to plot against position, comma separated</source>
        <translation>위치에 따라 그릴 차원입니다 (쉼표로 구분)</translation>
    </message>
    <message>
        <source>Caption without positional encoding</source>
        <translation>위치 인코딩 없이 캡션 생성</translation>
    </message>
    <message>
        <source>dimension</source>
        <translation>차원</translation>
    </message>
    <message>
        <source>position</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>position %1, dimension %2 (%3): %4</source>
        <translation>위치 %1, 차원 %2 (%3): %4</translation>
    </message>
    <message>
        <source>similarity</source>
        <translation>유사도</translation>
    </message>
    <message>
        <source>positions %1 and %2: %3</source>
        <translation>위치 %1과(와) %2: %3</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>너비</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>유사도</translation>
    </message>
    <message>
        <source>Plot dimensions</source>
        <translation>그릴 차원</translation>
    </message>
    <message>
        <source>Image grid 2D code: click a cell</source>
        <translation>이미지 격자 2D 코드: 셀을 클릭하십시오</translation>
    </message>
    <message>
        <source>Captioning without positional encoding…</source>
        <translation>위치 인코딩 없이 캡션 생성 중…</translation>
    </message>
    <message>
        <source>&lt;b&gt;With&lt;/b&gt; positional encoding: %1&lt;br&gt;&lt;b&gt;Without&lt;/b&gt;: %2</source>
        <translation>위치 인코딩 &lt;b&gt;사용&lt;/b&gt;: %1&lt;br&gt;&lt;b&gt;미사용&lt;/b&gt;: %2</translation>
    </message>
    <message>
        <source>The table, W = %1</source>
        <translation>테이블, W = %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;PE&lt;/b&gt;[pos, 2i] = sin(pos · 10000&lt;sup&gt;−2i/W&lt;/sup&gt;), &lt;b&gt;PE&lt;/b&gt;[pos, 2i+1] = cos(pos · 10000&lt;sup&gt;−2i/W&lt;/sup&gt;), W = %1</source>
        <translation>&lt;b&gt;PE&lt;/b&gt;[pos, 2i] = sin(pos · 10000&lt;sup&gt;−2i/W&lt;/sup&gt;), &lt;b&gt;PE&lt;/b&gt;[pos, 2i+1] = cos(pos · 10000&lt;sup&gt;−2i/W&lt;/sup&gt;), W = %1</translation>
    </message>
    <message>
        <source>Cosine similarity</source>
        <translation>코사인 유사도</translation>
    </message>
    <message>
        <source>Dot product</source>
        <translation>내적</translation>
    </message>
    <message>
        <source>dim %1 (%2)</source>
        <translation>차원 %1 (%2)</translation>
    </message>
    <message>
        <source>This model has no image grid (one feature token).</source>
        <translation>이 모델에는 이미지 격자가 없습니다 (특징 토큰 1개).</translation>
    </message>
    <message>
        <source>cell (%1, %2) vs every cell, cosine</source>
        <translation>셀 (%1, %2)과(와) 모든 셀 비교, 코사인</translation>
    </message>
</context>
<context>
    <name>cl::ui::QkDialog</name>
    <message>
        <source>Q · K walkthrough</source>
        <translation>Q · K 단계별 설명</translation>
    </message>
    <message>
        <source>Self-attention over the words</source>
        <translation>단어에 대한 셀프 어텐션</translation>
    </message>
    <message>
        <source>Cross-attention over the image</source>
        <translation>이미지에 대한 크로스 어텐션</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>키</translation>
    </message>
    <message>
        <source>q · k</source>
        <translation>q · k</translation>
    </message>
    <message>
        <source>÷ √(W/H)</source>
        <translation>÷ √(W/H)</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>가중치</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>어텐션</translation>
    </message>
    <message>
        <source>Layer %1, head %2: the query of word %3, “%4”…</source>
        <translation>레이어 %1, 헤드 %2: 단어 %3 “%4”의 쿼리…</translation>
    </message>
    <message>
        <source>Layer %1, head %2: the query of word %3, “%4” (hover a row for its key and value vectors, the heading for the query&apos;s).</source>
        <translation>레이어 %1, 헤드 %2: 단어 %3 “%4”의 쿼리입니다(행에 마우스를 올리면 해당 키와 값 벡터가, 머리글에 올리면 쿼리 벡터가 표시됩니다).</translation>
    </message>
    <message>
        <source>query q</source>
        <translation>쿼리 q</translation>
    </message>
    <message>
        <source>score = q · k ÷ √(W/H) = q · k ÷ %1; weight = softmax of the scores%2.</source>
        <translation>점수 = q · k ÷ √(W/H) = q · k ÷ %1; 가중치 = 점수의 softmax%2.</translation>
    </message>
    <message>
        <source> over the words so far (later words are masked)</source>
        <translation> (지금까지의 단어에 대해 계산하며, 뒤의 단어는 마스킹됨)</translation>
    </message>
    <message>
        <source>key k</source>
        <translation>키 k</translation>
    </message>
    <message>
        <source>value v</source>
        <translation>값 v</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>마스킹됨</translation>
    </message>
    <message>
        <source>This head is switched off (Heads tab): it adds nothing.</source>
        <translation>이 헤드는 꺼져 있습니다(헤드 탭): 아무것도 더하지 않습니다.</translation>
    </message>
    <message>
        <source>Σ weight × v is a vector of %1 numbers; through the output projection the head adds a vector of length %2 to the block&apos;s output of length %3 (%4 %). Computed in %5 ms.</source>
        <translation>Σ 가중치 × v는 숫자 %1개로 이루어진 벡터입니다. 이 헤드는 출력 프로젝션을 거쳐 길이 %3인 블록 출력에 길이 %2인 벡터를 더합니다(%4 %). 계산 시간: %5 ms.</translation>
    </message>
    <message>
        <source>Σ weight × v</source>
        <translation>Σ 가중치 × v</translation>
    </message>
    <message>
        <source>Could not walk through: %1</source>
        <translation>단계별로 살펴볼 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>cl::ui::SceneEditor</name>
    <message>
        <source>small</source>
        <translation>작음</translation>
    </message>
    <message>
        <source>large</source>
        <translation>큼</translation>
    </message>
    <message>
        <source>&amp;Add shape</source>
        <translation>모양 추가(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>삭제(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Random scene</source>
        <translation>무작위 장면(&amp;R)</translation>
    </message>
    <message>
        <source>Show attention on the canvas</source>
        <translation>캔버스에 어텐션 표시</translation>
    </message>
    <message>
        <source>Draw the selected word&apos;s cross-attention over the scene</source>
        <translation>선택한 단어의 크로스 어텐션을 장면 위에 그립니다</translation>
    </message>
    <message>
        <source>Selected shape (or the next one added)</source>
        <translation>선택한 모양(또는 다음에 추가할 모양)</translation>
    </message>
    <message>
        <source>Shape:</source>
        <translation>모양:</translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation>색:</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>크기:</translation>
    </message>
    <message>
        <source>Drag shapes on the canvas. The caption follows live.</source>
        <translation>캔버스에서 모양을 드래그하세요. 캡션이 실시간으로 따라 바뀝니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Reference caption&lt;/b&gt; (the scene&apos;s ground truth):</source>
        <translation>&lt;b&gt;참조 캡션&lt;/b&gt; (장면의 정답):</translation>
    </message>
    <message>
        <source>&lt;b&gt;The model says&lt;/b&gt; (click a word):</source>
        <translation>&lt;b&gt;모델 출력&lt;/b&gt; (단어를 클릭하세요):</translation>
    </message>
    <message>
        <source>(an empty scene has no caption)</source>
        <translation>(빈 장면에는 캡션이 없습니다)</translation>
    </message>
    <message>
        <source>Every panel shows this scene.</source>
        <translation>모든 패널에 이 장면이 표시됩니다.</translation>
    </message>
    <message>
        <source>Back to %1</source>
        <translation>%1(으)로 돌아가기</translation>
    </message>
    <message>
        <source>The other panels show %1. Edit this scene, or:</source>
        <translation>다른 패널에는 %1이(가) 표시됩니다. 이 장면을 편집하거나:</translation>
    </message>
    <message>
        <source>Show this scene in every panel</source>
        <translation>이 장면을 모든 패널에 표시</translation>
    </message>
    <message>
        <source>&lt;i&gt;(not captioned yet)&lt;/i&gt;</source>
        <translation>&lt;i&gt;(아직 캡션 없음)&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &lt;span style=&apos;color:#b35900&apos;&gt;[%1]&lt;/span&gt;</source>
        <translation> &lt;span style=&apos;color:#b35900&apos;&gt;[%1]&lt;/span&gt;</translation>
    </message>
    <message>
        <source>1 head off</source>
        <translation>헤드 1개 꺼짐</translation>
    </message>
    <message>
        <source>%1 heads off</source>
        <translation>헤드 %1개 꺼짐</translation>
    </message>
    <message>
        <source>✓ matches</source>
        <translation>✓ 일치</translation>
    </message>
    <message>
        <source>✗ differs</source>
        <translation>✗ 다름</translation>
    </message>
    <message>
        <source>Last edit → caption and map on screen: %1 ms</source>
        <translation>마지막 편집 → 화면에 캡션과 맵 표시까지: %1 ms</translation>
    </message>
</context>
<context>
    <name>cl::ui::Session</name>
    <message>
        <source>Captioning %1…</source>
        <translation>%1 캡션 생성 중…</translation>
    </message>
    <message>
        <source>the worker sent no caption</source>
        <translation>작업 프로세스가 캡션을 보내지 않았습니다</translation>
    </message>
    <message>
        <source>no branch came back</source>
        <translation>분기 결과가 돌아오지 않았습니다</translation>
    </message>
    <message>
        <source>no ablation came back</source>
        <translation>헤드 끄기(제거) 결과가 돌아오지 않았습니다</translation>
    </message>
    <message>
        <source>no reference came back</source>
        <translation>참조 결과가 돌아오지 않았습니다</translation>
    </message>
    <message>
        <source>no beam search came back</source>
        <translation>빔 서치 결과가 돌아오지 않았습니다</translation>
    </message>
    <message>
        <source>no explanation came back</source>
        <translation>설명 결과가 돌아오지 않았습니다</translation>
    </message>
    <message>
        <source>no walkthrough came back</source>
        <translation>단계별 설명 결과가 돌아오지 않았습니다</translation>
    </message>
    <message>
        <source>no head importance came back</source>
        <translation>헤드 중요도 결과가 돌아오지 않았습니다</translation>
    </message>
    <message>
        <source>no patching came back</source>
        <translation>패칭 결과가 돌아오지 않았습니다</translation>
    </message>
    <message>
        <source>Loading checkpoint %1…</source>
        <translation>체크포인트 %1 불러오는 중…</translation>
    </message>
</context>
<context>
    <name>cl::ui::TimelinePanel</name>
    <message>
        <source>exact match</source>
        <translation>정확 일치</translation>
    </message>
    <message>
        <source>BLEU-4</source>
        <translation>BLEU-4</translation>
    </message>
    <message>
        <source>attributes</source>
        <translation>속성</translation>
    </message>
    <message>
        <source>relations</source>
        <translation>관계</translation>
    </message>
    <message>
        <source>pointing (best head)</source>
        <translation>포인팅(가장 좋은 헤드)</translation>
    </message>
    <message>
        <source>val BLEU-1</source>
        <translation>검증 BLEU-1</translation>
    </message>
    <message>
        <source>val BLEU-4</source>
        <translation>검증 BLEU-4</translation>
    </message>
    <message>
        <source>val loss</source>
        <translation>검증 손실</translation>
    </message>
    <message>
        <source>Open run folder…</source>
        <translation>학습 실행 폴더 열기…</translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation>▶ 재생</translation>
    </message>
    <message>
        <source>Auto contrast (each map its own range)</source>
        <translation>자동 대비(맵마다 자체 범위 사용)</translation>
    </message>
    <message>
        <source>Cross-attention of:</source>
        <translation>크로스 어텐션 대상:</translation>
    </message>
    <message numerus="yes">
        <source>Run: %1 (%n snapshot(s))</source>
        <translation>
            <numerusform>학습 실행: %1 (스냅샷 %n개)</numerusform>
        </translation>
    </message>
    <message>
        <source>Run: %1 (%2 of its %3 snapshots, evenly spaced)</source>
        <translation>학습 실행: %1 (스냅샷 %3개 중 균등 간격으로 %2개)</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 일시정지</translation>
    </message>
    <message>
        <source>no run open</source>
        <translation>열린 학습 실행 없음</translation>
    </message>
    <message>
        <source>%1 · %2 of %3</source>
        <translation>%1 · %2/%3</translation>
    </message>
    <message>
        <source>Open a folder of checkpoints from one training run (File ▸ Open Training Run…); the bundled model&apos;s snapshots are one.</source>
        <translation>한 학습 실행의 체크포인트 폴더를 여세요(파일 ▸ 학습 실행 열기…). 기본 제공 모델의 스냅샷도 그런 폴더 중 하나입니다.</translation>
    </message>
    <message>
        <source>Captioning with every snapshot…</source>
        <translation>모든 스냅샷으로 캡션 생성 중…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>“%1”  —  after %2 training steps</source>
        <translation>“%1”  —  학습 %2스텝 후</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>snapshot</source>
        <translation>스냅샷</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>caption</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>Each snapshot&apos;s caption of the image on screen</source>
        <translation>화면에 있는 이미지에 대한 각 스냅샷의 캡션</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>not stored</source>
        <translation>저장되지 않음</translation>
    </message>
</context>
<context>
    <name>cl::ui::TrainPanel</name>
    <message>
        <source>Probe: the image on screen, captioned by each new snapshot.</source>
        <translation>프로브: 화면의 이미지에 새 스냅샷마다 캡션을 붙입니다.</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>시작</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>일시정지</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>중지</translation>
    </message>
    <message>
        <source>Save model…</source>
        <translation>모델 저장…</translation>
    </message>
    <message>
        <source>Open in Timeline</source>
        <translation>타임라인에서 열기</translation>
    </message>
    <message>
        <source>Show each snapshot in every panel</source>
        <translation>각 스냅샷을 모든 패널에 표시</translation>
    </message>
    <message>
        <source>Not started.</source>
        <translation>시작되지 않았습니다.</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>재개</translation>
    </message>
    <message>
        <source>Paused. </source>
        <translation>일시정지되었습니다. </translation>
    </message>
    <message>
        <source>Stopping after this step…</source>
        <translation>이 스텝이 끝나면 중지합니다…</translation>
    </message>
    <message>
        <source>step</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>loss (nats per word)</source>
        <translation>손실(단어당 나트)</translation>
    </message>
    <message>
        <source>held-out exact match %</source>
        <translation>홀드아웃 정확 일치 %</translation>
    </message>
    <message>
        <source>loss, each step</source>
        <translation>손실, 스텝별</translation>
    </message>
    <message>
        <source>loss, smoothed</source>
        <translation>손실, 평활화</translation>
    </message>
    <message>
        <source>exact match</source>
        <translation>정확 일치</translation>
    </message>
    <message>
        <source>Starting… snapshots go to %1</source>
        <translation>시작하는 중… 스냅샷은 %1에 저장됩니다</translation>
    </message>
    <message>
        <source>Step %1 of %2 · loss %3 (smoothed) · %4 steps/s · ETA %5</source>
        <translation>스텝 %1/%2 · 손실 %3(평활화) · %4 스텝/초 · ETA %5</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>학습에 실패했습니다: %1</translation>
    </message>
    <message>
        <source>Done after %1 steps. Snapshots in %2.</source>
        <translation>%1스텝 후 완료되었습니다. 스냅샷은 %2에 있습니다.</translation>
    </message>
    <message>
        <source>Probe off: tick “Show each snapshot in every panel”.</source>
        <translation>프로브 꺼짐: “각 스냅샷을 모든 패널에 표시”를 체크하세요.</translation>
    </message>
    <message>
        <source>Probe after %1 steps: “%2”</source>
        <translation>%1스텝 후 프로브: “%2”</translation>
    </message>
    <message>
        <source>Save model</source>
        <translation>모델 저장</translation>
    </message>
    <message>
        <source>Checkpoints (*.pt)</source>
        <translation>체크포인트 (*.pt)</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1에 쓸 수 없습니다.</translation>
    </message>
    <message>
        <source>Saving %1 (calibrating its out-of-world check)…</source>
        <translation>%1 저장 중(학습 범위 밖 검사 보정 중)…</translation>
    </message>
    <message>
        <source>Saving %1 failed: %2</source>
        <translation>%1 저장에 실패했습니다: %2</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>%1을(를) 저장했습니다.</translation>
    </message>
    <message>
        <source>Model and recipe</source>
        <translation>모델과 레시피</translation>
    </message>
    <message>
        <source>Lecture (≈ 5 min, ~90 % exact)</source>
        <translation>강의용(≈ 5분, 정확 일치 ~90 %)</translation>
    </message>
    <message>
        <source>Quick look (≈ 1.5 min)</source>
        <translation>빠르게 보기(≈ 1.5분)</translation>
    </message>
    <message>
        <source>Varied world (≈ 13 min, ~75 % exact)</source>
        <translation>다양한 세계(≈ 13분, 정확 일치 ~75 %)</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>사용자 지정</translation>
    </message>
    <message>
        <source>Times are for two otherwise idle CPU cores; programs running beside it make it slower (the ETA under the chart is measured).</source>
        <translation>시간은 다른 작업이 없는 CPU 코어 2개 기준입니다. 함께 실행 중인 프로그램이 있으면 느려집니다(차트 아래의 ETA는 실측값입니다).</translation>
    </message>
    <message>
        <source>Slides, paper, outlines and photographed sheets: 75.5 % exact on 200 held-out varied-world scenes after 8,000 steps. </source>
        <translation>슬라이드, 종이, 윤곽선, 사진으로 찍은 종이: 8,000스텝 후 홀드아웃 다양한 세계 장면 200개에서 정확 일치 75.5 %입니다. </translation>
    </message>
    <message>
        <source>2D position code on the image grid</source>
        <translation>이미지 그리드의 2D 위치 코드</translation>
    </message>
    <message>
        <source>classic scenes</source>
        <translation>클래식 장면</translation>
    </message>
    <message>
        <source>varied (slides, paper, outlines)</source>
        <translation>다양한 장면(슬라이드, 종이, 윤곽선)</translation>
    </message>
    <message>
        <source>Dropout while training. Every batch is new scenes, so there is nothing to overfit: 0 learns fastest.</source>
        <translation>학습 중 드롭아웃입니다. 배치마다 새 장면이므로 과적합될 대상이 없습니다: 0일 때 가장 빨리 학습합니다.</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>프리셋</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>레이어</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>헤드</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>너비</translation>
    </message>
    <message>
        <source>Scenes</source>
        <translation>장면</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>배치</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>학습률</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>드롭아웃</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>Snapshot every</source>
        <translation>스냅샷 간격</translation>
    </message>
    <message>
        <source>%1 × %1 cells (%2 px input)</source>
        <translation>%1 × %1 셀 (입력 %2 px)</translation>
    </message>
    <message>
        <source>How finely the image is cut into the tokens the words attend to. A finer grid sees smaller objects and points more precisely; each step takes about two thirds longer.</source>
        <translation>단어가 어텐션하는 토큰으로 이미지를 얼마나 잘게 나누는지입니다. 격자가 촘촘할수록 작은 물체를 더 잘 보고 더 정확히 가리키지만, 한 단계가 약 3분의 2 더 오래 걸립니다.</translation>
    </message>
    <message>
        <source>Image grid</source>
        <translation>이미지 격자</translation>
    </message>
    <message>
        <source>Bundled model&apos;s first stage (≈ 70 min)</source>
        <translation>기본 제공 모델의 첫 단계(≈ 70분)</translation>
    </message>
    <message>
        <source>The 8 × 8-grid run the bundled model starts from (48,000 steps; its snapshots are the training timeline). scripts/train-default.sh then fine-tunes it at a 12 × 12 grid for 12,000 steps (≈ 30 min) into default.pt. </source>
        <translation>기본 제공 모델이 출발하는 8 × 8 격자 학습 (48,000단계, 그 스냅샷이 학습 타임라인입니다). 그다음 scripts/train-default.sh가 이를 12 × 12 격자에서 12,000단계 (≈ 30분) 미세 조정해 default.pt를 만듭니다. </translation>
    </message>
</context>
<context>
    <name>cl::ui::TrainingRun</name>
    <message>
        <source>A training run is going; stop it first.</source>
        <translation>학습 실행이 진행 중입니다. 먼저 중지하세요.</translation>
    </message>
    <message>
        <source>The width (%1) must be a multiple of the heads (%2).</source>
        <translation>너비(%1)는 헤드 수(%2)의 배수여야 합니다.</translation>
    </message>
    <message>
        <source>Cannot create the run folder %1.</source>
        <translation>학습 실행 폴더 %1을(를) 만들 수 없습니다.</translation>
    </message>
    <message>
        <source>%1 already holds a run (*.pt); choose an empty folder.</source>
        <translation>%1에 이미 학습 실행(*.pt)이 있습니다. 빈 폴더를 선택하세요.</translation>
    </message>
</context>
<context>
    <name>cl::ui::WordChips</name>
    <message>
        <source>step %1: “%2”, p = %3</source>
        <translation>스텝 %1: “%2”, p = %3</translation>
    </message>
</context>
<context>
    <name>cl::ui::WorldNotice</name>
    <message>
        <source>This image looks unlike anything the model was trained on (%1; out-of-world score %2, above 1 is out): the caption is a guess.</source>
        <translation>이 이미지는 모델이 학습한 어떤 것과도 닮지 않았습니다(%1; 학습 범위 밖 점수 %2, 1을 넘으면 범위 밖): 캡션은 추측입니다.</translation>
    </message>
</context>
<context>
    <name>cl::ui::attention</name>
    <message>
        <source>L%1 avg</source>
        <translation>L%1 평균</translation>
    </message>
</context>
<context>
    <name>cl::ui::circuits</name>
    <message>
        <source>embeddings</source>
        <translation>임베딩</translation>
    </message>
    <message>
        <source>L%1 FFN</source>
        <translation>L%1 FFN</translation>
    </message>
    <message>
        <source>after L%1</source>
        <translation>L%1 이후</translation>
    </message>
</context>
<context>
    <name>cl::ui::imaging</name>
    <message>
        <source>its text chunks hold over %1 bytes (at most %2)</source>
        <translation>텍스트 청크가 %1바이트를 넘습니다(최대 %2)</translation>
    </message>
    <message>
        <source>it has over %1 JPEG scans (at most %1)</source>
        <translation>JPEG 스캔이 %1개를 넘습니다(최대 %1)</translation>
    </message>
    <message>
        <source>the image has no pixels</source>
        <translation>이미지에 픽셀이 없습니다</translation>
    </message>
    <message>
        <source>cannot open image %1: %2</source>
        <translation>이미지 %1을(를) 열 수 없습니다: %2</translation>
    </message>
    <message>
        <source>cannot open image %1: it is over %2 MiB</source>
        <translation>이미지 %1을(를) 열 수 없습니다: %2 MiB를 초과합니다</translation>
    </message>
    <message>
        <source>cannot read image %1: %2</source>
        <translation>이미지 %1을(를) 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>cannot read image: %1</source>
        <translation>이미지를 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>cannot write %1: could not encode the image as %2</source>
        <translation>%1에 쓸 수 없습니다: 이미지를 %2(으)로 인코딩할 수 없습니다</translation>
    </message>
</context>
</TS>
