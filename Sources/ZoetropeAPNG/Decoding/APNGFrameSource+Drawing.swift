extension APNGFrameSource: APNGFrameDrawing {}
