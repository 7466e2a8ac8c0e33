import SiftTool

SiftCommand.runMain()
